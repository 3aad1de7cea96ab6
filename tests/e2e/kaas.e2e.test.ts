/**
 * A Kaas through the real engine (`pulumi up`, `preview`, `refresh`, `destroy` via the Automation API) against
 * the emulator: the engine's own paths of a lifecycle, once. Create, the kubeconfig a secret in the state; an
 * update in place, after which a preview and a refresh find nothing to do; a scheduled upgrade, which a refresh
 * takes into the state once the emulator's clock passes its date, reporting no change; a change out of band,
 * which refresh takes in and up puts back; a deletion out of band, which refresh drops and up creates again;
 * adopt from another stack; and a destroy refused for the cluster that stack adopted, then run with the override.
 * The story runs once, under the emulator's default readings, the richest answers; each update in place, each
 * reading and each kind is the integration projects' (the provider suites run under both readings there), and
 * the other kinds through the engine are kinds.e2e.test.ts.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { DEFAULT_WIRE } from "../../emulator";
import { SYSTEM_POOL, WORKER_POOL, cluster } from "./support/args";
import { foreignDeleteRefusal } from "./support/refusals";
import {
  expectSettledIn,
  openSuite,
  stateOutputsOf,
  upWith,
  values,
  type Declared,
  type Suite,
} from "./support/suite";

const DAY = 24 * 3600 * 1000;

describe("Kaas through pulumi, default readings", () => {
  let s: Suite;
  let stack: Stack;

  beforeAll(async () => {
    s = await openSuite("kaas", { wire: DEFAULT_WIRE });
    stack = await s.stack("dev", s.program("kaas"));
  });
  afterAll(async () => {
    await s?.close();
  });

  const up = (resources: Declared[]) => upWith(s, stack, resources);

  const pools = (outputs: Record<string, unknown>) =>
    (outputs["cluster.currentNodePools"] as { name: string; nodes: number }[]).map(
      (p) => `${p.name}=${p.nodes}`,
    );

  it("creates the cluster with one POST and keeps the kubeconfig secret", async () => {
    const { calls, outputs, summary } = await up([cluster()]);
    // The create, then the program's release of the creation tag once the engine has recorded the id.
    expect(calls).toEqual(["POST /kaas", "PUT /kaas/kaas-0001"]);
    expect(summary.result).toBe("succeeded");
    expect(summary.resourceChanges).toEqual({ create: 2 });
    expect(outputs["cluster.kaasId"]).toBe("kaas-0001");
    expect(outputs["cluster.state"]).toBe("Active");
    expect(outputs["cluster.currentKubernetesVersion"]).toBe("1.32.5");
    expect(pools(outputs)).toEqual(["system=2", "workers=2"]);
    const all = await stack.outputs();
    expect(all["cluster.kubeconfig"].secret).toBe(true);
    expect(all["cluster.kubeconfig"].value).toContain(s.emulator.emulator.kubeconfigToken("kaas-0001"));
    expect(all["cluster.kaasId"].secret).toBe(false);
  });

  it("resizes a pool through the node pool endpoint", async () => {
    const { calls, outputs } = await up([
      cluster({ nodePools: [{ ...SYSTEM_POOL, nodes: 3 }, WORKER_POOL] }),
    ]);
    expect(calls).toEqual(["PUT /kaas/kaas-0001/nodePools/system"]);
    expect(pools(outputs)).toEqual(["system=3", "workers=2"]);
    await expectSettledIn(s, stack);
  });

  /** The program once the pool is resized and the upgrade done. */
  const settledArgs = () => ({
    nodePools: [{ ...SYSTEM_POOL, nodes: 3 }, WORKER_POOL],
    kubernetesVersion: "1.33.2",
  });

  it("schedules an upgrade, which a refresh takes in once the service's clock passes the date, reporting no change; dropping the past date sends nothing", async () => {
    const upgradeDate = new Date(Date.now() + 2 * DAY).toISOString();
    const { calls, outputs } = await up([cluster({ ...settledArgs(), upgradeDate })]);
    expect(calls).toEqual(["PUT /kaas/kaas-0001"]);
    expect(outputs["cluster.currentKubernetesVersion"]).toBe("1.32.5");
    expect(outputs["cluster.pendingUpgrade"]).toEqual({ version: "1.33.2", scheduledAt: upgradeDate });

    // Once the date has passed, the service has upgraded the cluster: refresh takes the new live version into
    // the state, and reports no change (the program asked for exactly this).
    s.emulator.emulator.advanceClock(3 * DAY);
    s.clearRequests();
    const refreshed = await stack.refresh({ expectNoChanges: true });
    expect(refreshed.summary.resourceChanges).toEqual({ same: 2 });
    // A refresh updates the resources' state, not the stack's outputs (the program does not run).
    const after = await stateOutputsOf(stack, "cluster");
    expect(after.currentKubernetesVersion).toBe("1.33.2");
    expect(after.pendingUpgrade).toBeNull();
    expect(s.mutations()).toEqual([]);
    // The program drops the past date: the engine records it, with no call to the service.
    const dropped = await up([cluster(settledArgs())]);
    expect(dropped.calls).toEqual([]);
  });

  it("converges after a change out of band: refresh sees it, up puts the declared value back", async () => {
    s.emulator.emulator.patchResource("kaas", "kaas-0001", { name: "renamed-by-hand" });
    const refreshed = await stack.refresh();
    expect(refreshed.summary.resourceChanges).toEqual({ same: 1, update: 1 });
    // The state holds the name the service answers: the program's differs from it, so up sends it back.
    const { calls, outputs, summary } = await up([cluster(settledArgs())]);
    expect(summary.resourceChanges).toEqual({ same: 1, update: 1 });
    expect(calls).toEqual(["PUT /kaas/kaas-0001"]);
    expect(outputs["cluster.name"]).toBe("e2e-cluster");
  });

  it("drops a cluster deleted out of band on refresh, and up creates it again", async () => {
    s.emulator.emulator.patchResource("kaas", "kaas-0001", { state: "Deleted" });
    s.emulator.emulator.advanceClock(60_000);
    const refreshed = await stack.refresh();
    expect(refreshed.summary.resourceChanges).toEqual({ same: 1, delete: 1 });
    const { calls, outputs } = await up([cluster(settledArgs())]);
    expect(calls).toEqual(["POST /kaas", "PUT /kaas/kaas-0002"]);
    expect(outputs["cluster.kaasId"]).toBe("kaas-0002");
  });

  it("adopts another stack's cluster by adoptId with adoptFromScope naming it, without creating one", async () => {
    const adopted = await s.stack("adopt", s.program("kaas-adopt"));
    // The owner tag names the first stack's resource, as its program's URN does: the one scope that lets the
    // adoption through (a refusal for any other is the provider's, tests/integration/kaas-provider.test.ts).
    const owner = "kaas/dev/cluster";
    await s.declare(adopted, [cluster({ ...settledArgs(), adoptId: "kaas-0002", adoptFromScope: owner })]);
    s.clearRequests();
    const result = await adopted.up();
    // No create: only the update that records the new owner.
    expect(s.mutations()).toEqual(["PUT /kaas/kaas-0002"]);
    expect(values(result.outputs)["cluster.kaasId"]).toBe("kaas-0002");
    await adopted.preview({ expectNoChanges: true });
    // The cluster now carries the adopting stack's owner tag, so the first stack, which still tracks it, refuses
    // to delete it without the override (the last test).
  });

  it("destroys the cluster another stack adopted only with the override, and leaves the service empty", async () => {
    s.clearRequests();
    await expect(stack.destroy()).rejects.toThrow(
      foreignDeleteRefusal({
        what: 'Kaas "cluster"',
        noun: "cluster",
        id: "kaas-0002",
        owner: "kaas-adopt/adopt/cluster",
        current: "kaas/dev",
      }),
    );
    expect(s.mutations()).toEqual([]);
    // The same stack, its next run with the override the refusal names in its environment.
    stack.workspace.envVars.VENDOR_ALLOW_FOREIGN_DELETE = "true";
    const result = await stack.destroy();
    expect(result.summary.resourceChanges).toEqual({ delete: 2 });
    expect(s.mutations()).toEqual(["DELETE /kaas/kaas-0002"]);
    s.emulator.emulator.advanceClock(60_000);
    const left = s.emulator.emulator.state().kaas.filter((k) => k.status?.state !== "Deleted");
    expect(left).toEqual([]);
  });
});
