/**
 * The account's limits through the real engine, against an emulator whose cluster types allow 1 to 50 nodes
 * per pool: a 1000-node pool is refused at `pulumi preview` when `vendor:limits` says 50 (naming the property,
 * the limit and the setting, with no request to the service), and at `pulumi up` by the service when nothing
 * is declared (naming the field and the limit, after one refused POST that created nothing). A cluster of
 * fifty pools, one of them badly named, fails the preview on short lines that name the pool and the limit.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { escapeRegExp as escape } from "../support/expressions";
import { SYSTEM_POOL, cluster } from "./support/args";
import { openSuite, type Suite } from "./support/suite";

const TOKEN = "pulumi-nodejs:dynamic/vendor-container:Kaas";
const BIG = cluster({ nodePools: [{ ...SYSTEM_POOL, nodes: 1000 }] });

describe("clusters against the account's limits", () => {
  let s: Suite;
  let stack: Stack;
  beforeAll(async () => {
    s = await openSuite("limits");
    stack = await s.stack("dev", s.program("limits"));
    await s.declare(stack, [BIG]);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("is refused at preview when vendor:limits says maxNode 50, without a request to the service", async () => {
    await stack.setConfig("vendor:limits", { value: '{"maxNode": 50, "maxNodePool": 10}' });
    s.clearRequests();
    const output = await stack.preview().then(
      () => "the preview succeeded",
      (error: Error) => error.message,
    );
    // A nested path goes to the engine as a failure of the whole resource that names it: the engine's line
    // for a property would print `{<nil>}` for its value (engine notes "check").
    expect(output).toMatch(
      new RegExp(
        `${escape(
          `${TOKEN} resource 'cluster' has a problem: nodePools[0].nodes: must be at most 50 ` +
            "(vendor:limits maxNode), got 1000",
        )}$`,
        "m",
      ),
    );
    expect(output).not.toContain("{<nil>}");
    expect(s.requests()).toEqual([]);
  });

  it("fails the preview naming the setting and the key when vendor:limits has an unknown key", async () => {
    await stack.setConfig("vendor:limits", { value: '{"maxNodes": 50}' });
    s.clearRequests();
    const output = await stack.preview().then(
      () => "the preview succeeded",
      (error: Error) => error.message,
    );
    // A failure without a property: `<type> resource '<name>' has a problem: <reason>`.
    expect(output).toContain(
      `${TOKEN} resource 'cluster' has a problem: vendor:limits: "maxNodes" is not a limit (limits: ` +
        "maxNodePool, minNodePool, maxNode, minNode, minClusterBlockStorageSize, maxClusterBlockStorageSize, " +
        "maxWhitelistCount)",
    );
    expect(s.requests()).toEqual([]);
  });

  it("is refused at up by the service when no limits are declared, naming the field and the limit, and nothing is created", async () => {
    await stack.removeConfig("vendor:limits");
    s.clearRequests();
    await expect(stack.up()).rejects.toThrow(
      "POST /kaas failed (400 Bad Request): properties.nodePools[0].nodes: must be between 1 and 50 (got 1000)",
    );
    expect(s.mutations()).toEqual(["POST /kaas"]);
    expect(s.emulator.emulator.state().kaas).toEqual([]);
    const { deployment } = await stack.exportStack();
    expect(
      (deployment.resources ?? []).filter((r: { type: string }) => r.type.includes("vendor-container")),
    ).toEqual([]);
  });

  it("names the bad pool of fifty and the pool limit on short lines, without quoting the pools", async () => {
    const pools = Array.from({ length: 50 }, (_, i) => ({
      ...SYSTEM_POOL,
      name: i === 37 ? "Pool_37" : `pool-${i}`,
    }));
    await s.declare(stack, [cluster({ nodePools: pools })]);
    await stack.setConfig("vendor:limits", { value: '{"maxNode": 50, "maxNodePool": 10}' });
    s.clearRequests();
    const output = await stack.preview().then(
      () => "the preview succeeded",
      (error: Error) => error.message,
    );
    const subject = `${TOKEN} resource 'cluster'`;
    const problem = `${subject} has a problem: `;
    const lines = output.split("\n").filter((line) => line.includes(subject));
    // Each failure is shown twice (progress, then the diagnostics summary), behind different prefixes.
    expect(new Set(lines.map((line) => line.slice(line.indexOf(subject)).trim()))).toEqual(
      new Set([
        `${problem}nodePools: must have at most 10 node pools (vendor:limits maxNodePool), got 50`,
        `${problem}nodePools[37].name = "Pool_37": must be 1-40 lower-case letters, digits or '-', starting ` +
          "and ending with a letter or digit",
      ]),
    );
    // Before, the engine quoted all fifty pools on the limit's line (3.4 KB) and printed `{<nil>}` for the name.
    for (const line of lines) expect(line.length).toBeLessThan(300);
    expect(output).not.toContain("{<nil>}");
    expect(output).not.toContain("pool-12");
    expect(s.requests()).toEqual([]);
  });
});
