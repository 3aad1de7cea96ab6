/**
 * State names the published interface does not list, through the real engine: a
 * cluster whose service answers another vocabulary (the emulator's `states: alternate`, `Ready` for `Active`).
 * Without `vendor:stateNames` the create fails after `vendor:unknownStateTimeout` (short here) with a message
 * naming the state and the setting, and the engine keeps the cluster; with the mapping in stack config the next
 * `up` resumes that same cluster and succeeds, and `destroy` leaves the service empty.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { SYSTEM_POOL, cluster } from "./support/args";
import { openSuite, upWith, type Suite } from "./support/suite";

/** What a user of this vocabulary sets as `vendor:stateNames`. */
const MAPPING = JSON.stringify({
  Ready: "settled",
  Starting: "transitional",
  Changing: "transitional",
  Removing: "deleting",
  Removed: "deleted",
  Broken: "failed",
});

describe("a cluster whose states use another vocabulary, through pulumi", () => {
  let s: Suite;
  let stack: Stack;

  beforeAll(async () => {
    s = await openSuite("states", { wire: { states: "alternate" } });
    stack = await s.stack("dev", s.program("states"), { "vendor:unknownStateTimeout": { value: "2s" } });
  });
  afterAll(async () => {
    await s?.close();
  });

  const small = () => cluster({ nodePools: [SYSTEM_POOL] });
  /** The clusters the service holds, with the state it answers. */
  const held = () => s.emulator.emulator.state().kaas.map((k) => [k.metadata.id, k.status?.state]);

  it("fails up without vendor:stateNames, naming the state and the setting, and keeps the cluster", async () => {
    await s.declare(stack, [small()]);
    s.clearRequests();

    const message = await stack.up().then(
      () => "the up succeeded",
      (error: Error) => error.message,
    );

    expect(message).toContain(
      'Kaas "cluster" (kaas-0001) was created but is not ready: GET /kaas/kaas-0001: Kaas "cluster" ' +
        '(kaas-0001) stayed in states "Starting", "Ready", which this provider does not know, for 2s while ' +
        'waiting for Active. Tell it what "Ready" means with the setting vendor:stateNames (VENDOR_STATE_NAMES), ' +
        'e.g. {"Ready": "settled"}, mapping each state name to settled, transitional, deleting, deleted or ' +
        "failed; vendor:unknownStateTimeout (VENDOR_UNKNOWN_STATE_TIMEOUT) sets how long an unknown state is " +
        "waited on.",
    );
    expect(s.cliOutput.join("\n")).toContain(
      'Kaas "cluster" (kaas-0001) is in state "Starting", which this provider does not know ' +
        "(vendor:stateNames); waiting for Active, giving up in 2s (0s elapsed)",
    );
    expect(s.mutations()).toEqual(["POST /kaas"]);
    expect(held()).toEqual([["kaas-0001", "Ready"]]);
  });

  it("succeeds with vendor:stateNames in stack config, resuming the same cluster, and destroys it", async () => {
    await stack.setConfig("vendor:stateNames", { value: MAPPING });

    const { calls, outputs } = await upWith(s, stack, [small()]);

    expect(calls).toEqual(["PUT /kaas/kaas-0001"]);
    expect([outputs["cluster.kaasId"], outputs["cluster.state"]]).toEqual(["kaas-0001", "Ready"]);
    expect(held()).toEqual([["kaas-0001", "Ready"]]);
    s.clearRequests();
    await stack.destroy();
    expect(s.mutations()).toEqual(["DELETE /kaas/kaas-0001"]);
  });
});
