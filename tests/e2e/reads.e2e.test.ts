/**
 * Lists through the real engine, in one stack against an emulator whose project
 * already holds a cluster the client cannot read (a null `metadata.id`, as the published schemas allow), under
 * the reading where the service ignores filters (so every lookup sees the whole project): `listKaas` with a
 * projection exports the projected clusters and warns about the unreadable one; `pulumi up` creates a cluster
 * beside it and prints the skipped item's line; a `pulumi refresh` of a cluster whose own answer is malformed
 * fails naming the field.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { DEFAULT_WIRE } from "../../emulator";
import { cluster } from "./support/args";
import { PROJECT, openSuite, upWith, type Suite } from "./support/suite";

/** The line the client words for the unreadable cluster, at offset 1 of the project's list. */
const SKIPPED =
  "GET /kaas: skipped the item at offset 1, which the client cannot read: /metadata/id: must be string";

describe("lists through pulumi", () => {
  let s: Suite;
  let stack: Stack;

  beforeAll(async () => {
    s = await openSuite("reads", { wire: { ...DEFAULT_WIRE, filters: "ignored" } });
    s.emulator.emulator.seed({ projectId: PROJECT, kind: "kaas", count: 2, namePrefix: "seeded" });
    s.emulator.emulator.patchResource("kaas", "kaas-0002", { wireOverrides: { "/metadata/id": null } });
    stack = await s.stack("dev", s.program("reads"));
  });
  afterAll(async () => {
    await s?.close();
  });

  const printed = () => s.cliOutput.join("\n");

  it("listKaas with a projection exports the projected clusters and warns about the unreadable one", async () => {
    await stack.setConfig("e2e:functions", {
      value: JSON.stringify([{ output: "projected", call: "listKaas", args: { projection: "status" } }]),
    });

    const { calls, outputs } = await upWith(s, stack, []);

    const { metadata, status } = s.emulator.emulator.state().kaas[0];
    expect(outputs.projected).toEqual([{ metadata, status }]);
    expect(calls).toEqual([]);
    expect(printed()).toContain(`warning: listKaas: ${SKIPPED}`);
  });

  it("pulumi up creates a cluster in a project holding a malformed one, printing the skipped item", async () => {
    await stack.removeConfig("e2e:functions");

    const { calls, summary } = await upWith(s, stack, [cluster()]);

    expect(calls).toEqual(["POST /kaas", "PUT /kaas/kaas-0003"]);
    expect(summary.resourceChanges).toEqual({ create: 1, same: 1 });
    expect(printed()).toContain(`[vendor-container] Kaas "cluster": ${SKIPPED}`);
  });

  it("pulumi refresh of a cluster whose own answer is malformed fails naming the field", async () => {
    s.emulator.emulator.patchResource("kaas", "kaas-0003", {
      wireOverrides: { "/properties/nodePools/0/name": null },
    });

    await expect(stack.refresh()).rejects.toThrow(
      "GET /kaas/kaas-0003 answered (200): unexpected response body: /properties/nodePools/0/name: must be string",
    );
  });
});
