/**
 * The account's limits through the real engine, against an emulator whose cluster types allow 1 to 50 nodes
 * per pool: a 1000-node pool is refused at `pulumi preview` when `vendor:limits` says 50 (naming the property,
 * the limit and the setting, with no request to the service), and at `pulumi up` by the service when nothing
 * is declared (naming the field and the limit, after one refused POST that created nothing).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { SYSTEM_POOL, cluster } from "./support/args";
import { openSuite, type Suite } from "./support/suite";

const TOKEN = "pulumi-nodejs:dynamic/vendor-container:Kaas";
const BIG = cluster({ nodePools: [{ ...SYSTEM_POOL, nodes: 1000 }] });

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("a 1000-node pool against the account's limits", () => {
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
    // The engine's line for a check failure: `<type> resource '<name>': property <p> value {<v>} has a problem: <reason>`.
    expect(output).toMatch(
      new RegExp(
        `${escape(`${TOKEN} resource 'cluster': property nodePools[0].nodes value {`)}[^\\n]*` +
          `${escape("} has a problem: must be at most 50 (vendor:limits maxNode), got 1000")}$`,
        "m",
      ),
    );
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
});
