/**
 * KaasBackup, Registry and VolumeAttachment through the real engine against the emulator, sharing one cluster in
 * one stack, under the published interface only: what the engine adds to their providers. It creates the backup
 * once its cluster is there (the backup waits on the cluster's id), then an attachment to a node of it; it
 * replaces an attachment moved to another node by deleting it first (its diff asks for `deleteBeforeReplace`:
 * checked against the emulator's own truth, which the published interface does not show); and it destroys the
 * backup and the attachment before their cluster.
 *
 * Each kind's lifecycle under every reading (create, a read that leaves nothing for the next preview to do,
 * update in place, refresh after a change out of band, adopt, delete) is the integration projects'
 * (tests/integration/kaasBackup-provider.test.ts, registry-provider.test.ts,
 * volume-attachment-provider.test.ts), and the engine's own paths of a lifecycle (update in place and the
 * preview and refresh after it, refresh of a change and of a deletion out of band, adopt, destroy refused and
 * overridden) run once, on a Kaas, under the default readings (kaas.e2e.test.ts).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { STRICT_WIRE } from "../../emulator";
import type { RegistryResponse } from "../../schemas";
import { DATA_VOLUME, attachment, backup, cluster, registry } from "./support/args";
import { openSuite, upWith, type Suite } from "./support/suite";

const KAAS = "kaas-0001";
/** The two nodes of the system pool, as `kubectl get nodes` shows them (emulator/kinds/kaas/record.ts). */
const NODES = [`${KAAS}-system-1`, `${KAAS}-system-2`];
const nodePath = (node: string) => `/kaas/${KAAS}/nodePools/system/nodes/${node}`;

describe("KaasBackup, Registry and VolumeAttachment through pulumi, published interface only", () => {
  let s: Suite;
  let stack: Stack;

  beforeAll(async () => {
    s = await openSuite("kinds", { wire: STRICT_WIRE });
    stack = await s.stack("dev", s.program("kinds"));
  });
  afterAll(async () => {
    await s?.close();
  });

  const images = () => registry({ billingPeriod: "Month" });
  const liveRegistry = () =>
    s.emulator.emulator.state().registries.find((r) => r.metadata.id === "registry-0001") as RegistryResponse;

  it("creates the backup once its cluster is there, and a registry, each with one POST", async () => {
    const { calls, outputs, summary } = await upWith(s, stack, [cluster(), backup(), images()]);
    // Each create is followed by the program's release of its creation tag once the engine recorded the id; the
    // objects' requests interleave, each object's in order.
    expect(calls.filter((call) => /^\S+ \/kaas(\/kaas-0001)?$/.test(call))).toEqual([
      "POST /kaas",
      `PUT /kaas/${KAAS}`,
    ]);
    expect(calls.filter((call) => call.includes("/backups"))).toEqual([
      `POST /kaas/${KAAS}/backups`,
      `PUT /kaas/${KAAS}/backups/backup-0001`,
    ]);
    expect(calls.filter((call) => call.includes("/registries"))).toEqual([
      "POST /registries",
      "PUT /registries/registry-0001",
    ]);
    expect(calls).toHaveLength(6);
    expect(summary.resourceChanges).toEqual({ create: 4 });
    expect(outputs["nightly.backupId"]).toBe("backup-0001");
    expect(outputs["nightly.kaasId"]).toBe(KAAS);
    expect(outputs["nightly.state"]).toBe("Active");
    expect(outputs["nightly.cluster"]).toEqual({
      id: KAAS,
      uri: expect.stringMatching(new RegExp(`/kaas/${KAAS}$`)),
      name: "e2e-cluster",
    });
    expect(outputs["images.registryId"]).toBe("registry-0001");
    expect(outputs["images.state"]).toBe("Active");
    expect(outputs["images.adminPasswordLastSetDate"]).toBe(
      liveRegistry().data?.private?.adminPasswordLastSetDate,
    );
  });

  it("attaches the volume to a node of the cluster with one call", async () => {
    expect(s.emulator.emulator.nodes(KAAS).find((p) => p.nodePool === "system")!.nodeIds).toEqual(NODES);
    const { calls, outputs, summary } = await upWith(s, stack, [
      cluster(),
      backup(),
      images(),
      attachment(NODES[0]),
    ]);
    expect(calls).toEqual([`POST ${nodePath(NODES[0])}/attach`]);
    expect(summary.resourceChanges).toEqual({ same: 4, create: 1 });
    expect(outputs["data.nodeId"]).toBe(NODES[0]);
    // The responses do not show attachments: the service's acceptance is all there is.
    expect(outputs["data.verification"]).toBe("none");
    s.emulator.emulator.advanceClock(1000);
    expect(s.emulator.emulator.attachments(KAAS)).toEqual([
      { uri: DATA_VOLUME, nodePoolName: "system", nodeId: NODES[0], sizeGb: 10, state: "attached" },
    ]);
  });

  it("moves the attachment to another node: detach first, then attach", async () => {
    const { calls, outputs, summary } = await upWith(s, stack, [
      cluster(),
      backup(),
      images(),
      attachment(NODES[1]),
    ]);
    expect(calls).toEqual([`POST ${nodePath(NODES[0])}/detach`, `POST ${nodePath(NODES[1])}/attach`]);
    expect(summary.resourceChanges).toEqual({ same: 4, replace: 1 });
    expect(outputs["data.nodeId"]).toBe(NODES[1]);
    expect(outputs["data.verification"]).toBe("none");
    s.emulator.emulator.advanceClock(1000);
    expect(s.emulator.emulator.attachments(KAAS)).toEqual([
      { uri: DATA_VOLUME, nodePoolName: "system", nodeId: NODES[1], sizeGb: 10, state: "attached" },
    ]);
  });

  it("destroys everything, the backup and the attachment before their cluster", async () => {
    s.clearRequests();
    const result = await stack.destroy();
    expect(result.summary.resourceChanges).toEqual({ delete: 5 });
    const calls = s.mutations();
    const backupDelete = `DELETE /kaas/${KAAS}/backups/backup-0001`;
    const detach = `POST ${nodePath(NODES[1])}/detach`;
    const clusterDelete = `DELETE /kaas/${KAAS}`;
    expect([...calls].sort()).toEqual(
      [detach, backupDelete, clusterDelete, "DELETE /registries/registry-0001"].sort(),
    );
    expect(calls.indexOf(backupDelete)).toBeLessThan(calls.indexOf(clusterDelete));
    expect(calls.indexOf(detach)).toBeLessThan(calls.indexOf(clusterDelete));
    s.emulator.emulator.advanceClock(60_000);
    const left = s.emulator.emulator.state();
    expect({ kaas: left.kaas, backups: left.backups, registries: left.registries }).toEqual({
      kaas: [],
      backups: [],
      registries: [],
    });
  });
});
