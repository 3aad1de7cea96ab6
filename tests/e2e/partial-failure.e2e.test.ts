/**
 * Partial failure through the real engine: provisioning fails after the service accepted the create (a cluster
 * that never leaves `InCreation` within its create timeout). `up` fails with the provider's message, the engine
 * keeps the object in state with its id and init error, the service holds exactly one object; once the service
 * recovers, the next `up` resumes it without a new POST and succeeds. Destroy then leaves the service empty:
 * nothing was orphaned. The story runs once, under the emulator's default readings; the provider's resume under
 * the published interface only is the integration projects' (tests/integration/reliability-faults.test.ts runs
 * under both readings), and so is a create that ends `Failed`, which the engine records the same way
 * (tests/integration/registry-provider.test.ts, kaas-provider.test.ts, kaasBackup-provider.test.ts).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { DEFAULT_WIRE, defaultFaults } from "../../emulator";
import { cluster } from "./support/args";
import { openSuite, values, type Declared, type Suite } from "./support/suite";

/** The state entry of the resource named `name`, from `pulumi stack export`. */
async function stateOf(stack: Stack, name: string) {
  const state = await stack.exportStack();
  return (
    state.deployment.resources as {
      urn: string;
      id?: string;
      initErrors?: string[];
      outputs?: Record<string, unknown>;
    }[]
  ).find((r) => r.urn.endsWith(`::${name}`));
}

/** The message of the rejected operation `run`. */
async function failure(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    return String((error as Error).message);
  }
  throw new Error("the operation succeeded; it was expected to fail");
}

describe("partial failure through pulumi, default readings", () => {
  let s: Suite;
  let stack: Stack;

  beforeAll(async () => {
    s = await openSuite("partial", { wire: DEFAULT_WIRE });
    stack = await s.stack("dev", s.program("partial"));
  });
  afterAll(async () => {
    await s?.close();
  });

  const stuckCluster = () => cluster({ timeouts: { create: "5s" } });

  async function upExpectingFailure(resources: Declared[]) {
    await s.declare(stack, resources);
    s.clearRequests();
    return failure(stack.up());
  }

  it("keeps a cluster stuck in creation in state with its id when up times out", async () => {
    s.emulator.emulator.setFaults({ provisioning: { kaas: "stuck", registry: "ok", backup: "ok" } });
    const message = await upExpectingFailure([stuckCluster()]);
    // The wait reports what was left of the 5 s once the create was accepted: 4 s on a busy machine.
    const left = /did not reach Active within ([45])s/.exec(message)?.[1];
    const reason =
      'Kaas "cluster" (kaas-0001) was created but is not ready: GET /kaas/kaas-0001 failed (deadline): ' +
      `Kaas "cluster" (kaas-0001) did not reach Active within ${left}s (last state InCreation)`;
    expect(message).toContain(`* ${reason}`);
    expect(s.mutations()).toEqual(["POST /kaas"]);
    const kept = await stateOf(stack, "cluster");
    expect(kept?.id).toBe("kaas-0001");
    expect(kept?.initErrors).toEqual([reason]);
    expect(kept?.outputs?.state).toBe("InCreation");
    expect(typeof kept?.outputs?.__provider).toBe("string");
    const held = s.emulator.emulator.state().kaas;
    expect(held.map((k) => [k.metadata.id, k.status?.state])).toEqual([["kaas-0001", "InCreation"]]);
  });

  it("resumes the cluster once the service finishes it: no new POST, up succeeds", async () => {
    s.emulator.emulator.setFaults(defaultFaults());
    s.emulator.emulator.patchResource("kaas", "kaas-0001", { state: "Active" });
    s.clearRequests();
    const result = await stack.up();
    // No create: only the update that records the owner and releases the creation tag.
    expect(s.mutations()).toEqual(["PUT /kaas/kaas-0001"]);
    expect(result.summary.result).toBe("succeeded");
    const outputs = values(result.outputs);
    expect(outputs["cluster.kaasId"]).toBe("kaas-0001");
    expect(outputs["cluster.state"]).toBe("Active");
    expect(outputs["cluster.kubeconfig"]).toContain(s.emulator.emulator.kubeconfigToken("kaas-0001"));
    expect((await stateOf(stack, "cluster"))?.initErrors).toBeUndefined();
    expect(s.emulator.emulator.state().kaas.map((k) => k.metadata.id)).toEqual(["kaas-0001"]);
    s.clearRequests();
    await stack.preview({ expectNoChanges: true });
    await stack.refresh({ expectNoChanges: true });
    expect(s.mutations()).toEqual([]);
  });

  it("destroys the cluster and leaves the service empty: nothing orphaned", async () => {
    s.clearRequests();
    const result = await stack.destroy();
    expect(result.summary.resourceChanges).toEqual({ delete: 2 });
    expect(s.mutations()).toEqual(["DELETE /kaas/kaas-0001"]);
    s.emulator.emulator.advanceClock(60_000);
    const left = s.emulator.emulator.state();
    expect({ kaas: left.kaas, backups: left.backups, registries: left.registries }).toEqual({
      kaas: [],
      backups: [],
      registries: [],
    });
  });
});
