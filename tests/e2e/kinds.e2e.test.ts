/**
 * KaasBackup, Registry and VolumeAttachment through the real engine against the emulator, sharing one cluster in
 * one stack, under the published interface only. Each in-place update is followed by a preview and a refresh
 * that must find nothing to do; drift and deletion out of band converge; adopt takes an existing backup over; an
 * attachment moves between nodes (checked against the emulator's own truth, which the published interface does
 * not show, so that the provider has only its state to go by) and destroy detaches it before its cluster goes.
 * The story runs once: under the richer readings, where answers show attachments, it is the integration
 * projects' (tests/integration/volume-attachment-provider.test.ts runs under every attachments reading), and the
 * Kaas story runs through the engine under the default readings (kaas.e2e.test.ts).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { STRICT_WIRE } from "../../emulator";
import type { RegistryResponse } from "../../schemas";
import { DATA_VOLUME, attachment, backup, cluster, registry } from "./support/args";
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

const KAAS = "kaas-0001";
const ATTACHMENT_ID = `${KAAS}:${DATA_VOLUME}`;
const nodePath = (node: string) => `/kaas/${KAAS}/nodePools/system/nodes/${node}`;

describe("KaasBackup, Registry and VolumeAttachment through pulumi, published interface only", () => {
  let s: Suite;
  let stack: Stack;
  /** The two nodes of the system pool, as `kubectl get nodes` shows them. */
  let nodes: string[];

  beforeAll(async () => {
    s = await openSuite("kinds", { wire: STRICT_WIRE });
    stack = await s.stack("dev", s.program("kinds"));
  });
  afterAll(async () => {
    await s?.close();
  });

  const up = (resources: Declared[]) => upWith(s, stack, resources);
  const expectSettled = () => expectSettledIn(s, stack);
  const stateOutputs = (name: string) => stateOutputsOf(stack, name);

  const nightly = (overrides: Record<string, unknown> = {}) =>
    backup({ billingPeriod: "Year", ...overrides });
  const images = (overrides: Record<string, unknown> = {}) =>
    registry({ billingPeriod: "Month", ...overrides });
  const rotatedYearly = () => images({ adminPasswordResetTrigger: "rotated-1", billingPeriod: "Year" });
  const liveRegistry = (id = "registry-0001") =>
    s.emulator.emulator.state().registries.find((r) => r.metadata.id === id) as RegistryResponse;

  it("creates the backup once its cluster is there, with one POST each", async () => {
    const { calls, outputs, summary } = await up([cluster(), backup()]);
    // Each create is followed by the program's release of its creation tag once the engine recorded the id; the
    // cluster's release and the backup's create run side by side, so each object's requests are in order.
    expect(calls.filter((call) => !call.includes("/backups"))).toEqual(["POST /kaas", `PUT /kaas/${KAAS}`]);
    expect(calls.filter((call) => call.includes("/backups"))).toEqual([
      `POST /kaas/${KAAS}/backups`,
      `PUT /kaas/${KAAS}/backups/backup-0001`,
    ]);
    expect(summary.resourceChanges).toEqual({ create: 3 });
    expect(outputs["nightly.backupId"]).toBe("backup-0001");
    expect(outputs["nightly.kaasId"]).toBe(KAAS);
    expect(outputs["nightly.state"]).toBe("Active");
    expect(outputs["nightly.billingPeriod"]).toBe("Month");
    expect(outputs["nightly.currentRetentionDays"]).toBe(7);
    expect(outputs["nightly.cluster"]).toEqual({
      id: KAAS,
      uri: expect.stringMatching(new RegExp(`/kaas/${KAAS}$`)),
      name: "e2e-cluster",
    });
    nodes = s.emulator.emulator.nodes(KAAS).find((p) => p.nodePool === "system")!.nodeIds;
    expect(nodes).toHaveLength(2);
    await expectSettled();
  });

  it("updates the backup's billing period in place", async () => {
    const { calls, outputs, summary } = await up([cluster(), nightly()]);
    expect(calls).toEqual([`PUT /kaas/${KAAS}/backups/backup-0001`]);
    expect(summary.resourceChanges).toEqual({ same: 2, update: 1 });
    expect(outputs["nightly.billingPeriod"]).toBe("Year");
    expect(s.emulator.emulator.state().backups[0].properties).toMatchObject({ billingPeriod: "Year" });
    await expectSettled();
  });

  it("converges a backup changed out of band: refresh sees it, up puts the declared values back", async () => {
    s.emulator.emulator.patchResource("backup", "backup-0001", {
      name: "renamed-by-hand",
      properties: { billingPeriod: "Hour" },
    });
    const refreshed = await stack.refresh();
    expect(refreshed.summary.resourceChanges).toEqual({ same: 2, update: 1 });
    const seen = await stateOutputs("nightly");
    expect(seen.name).toBe("renamed-by-hand");
    expect(seen.billingPeriod).toBe("Hour");
    const preview = await stack.preview();
    expect(preview.changeSummary).toEqual({ same: 2, update: 1 });
    const { calls, outputs } = await up([cluster(), nightly()]);
    expect(calls).toEqual([`PUT /kaas/${KAAS}/backups/backup-0001`]);
    expect(outputs["nightly.name"]).toBe("nightly");
    expect(outputs["nightly.billingPeriod"]).toBe("Year");
    await expectSettled();
  });

  it("drops a backup deleted out of band on refresh, and up creates it again", async () => {
    s.emulator.emulator.patchResource("backup", "backup-0001", { state: "Deleted" });
    s.emulator.emulator.advanceClock(60_000);
    const refreshed = await stack.refresh();
    expect(refreshed.summary.resourceChanges).toEqual({ same: 2, delete: 1 });
    const { calls, outputs, summary } = await up([cluster(), nightly()]);
    expect(calls).toEqual([`POST /kaas/${KAAS}/backups`, `PUT /kaas/${KAAS}/backups/backup-0002`]);
    expect(summary.resourceChanges).toEqual({ same: 2, create: 1 });
    expect(outputs["nightly.backupId"]).toBe("backup-0002");
    expect(outputs["nightly.billingPeriod"]).toBe("Year");
    await expectSettled();
  });

  it("adopts another stack's backup by adoptId only with adoptFromScope naming it, without creating one", async () => {
    const adopting = await s.stack("adopt", s.program("kinds-adopt"));
    await s.declare(adopting, [nightly({ kaasId: KAAS, adoptId: "backup-0002" })]);
    s.clearRequests();
    const owner = "kinds/dev/nightly";
    await expect(adopting.up()).rejects.toThrow(
      `KaasBackup "nightly": adoptId backup-0002: the backup belongs to another resource, "${owner}" (its ` +
        `owner tag), and adopting it would let two stacks act on it. If that stack no longer tracks it, or is ` +
        `being retired, and taking it over is intended, also set adoptFromScope: "${owner}".`,
    );
    expect(s.mutations()).toEqual([]);
    await s.declare(adopting, [nightly({ kaasId: KAAS, adoptId: "backup-0002", adoptFromScope: owner })]);
    const result = await adopting.up();
    // No create: only the update that records the new owner.
    expect(s.mutations()).toEqual([`PUT /kaas/${KAAS}/backups/backup-0002`]);
    expect(s.emulator.emulator.state().backups[0].metadata.tags).toEqual([
      "pulumi-ct-owner:kinds-adopt/adopt/nightly",
    ]);
    // The stack resource came with the refused run.
    expect(result.summary.resourceChanges).toEqual({ same: 1, create: 1 });
    expect(values(result.outputs)["nightly.backupId"]).toBe("backup-0002");
    expect(values(result.outputs)["nightly.state"]).toBe("Active");
    await adopting.preview({ expectNoChanges: true });
    // The adopting stack lets go of it without deleting it. The backup keeps the adopting stack's owner tag, so
    // the first stack, which still tracks it, refuses to delete it without the override (the last test).
    await adopting.workspace.removeStack("adopt", { force: true });
    expect(s.emulator.emulator.state().backups.map((b) => b.metadata.id)).toEqual(["backup-0002"]);
  });

  it("creates a registry with one POST and settles", async () => {
    const { calls, outputs } = await up([cluster(), nightly(), images()]);
    expect(calls).toEqual(["POST /registries", "PUT /registries/registry-0001"]);
    expect(outputs["images.registryId"]).toBe("registry-0001");
    expect(outputs["images.state"]).toBe("Active");
    expect(outputs["images.passwordSet"]).toBe(true);
    expect(outputs["images.currentAdminUsername"]).toBe("ops");
    expect(outputs["images.currentSize"]).toBe("Small");
    expect(outputs["images.billingPeriod"]).toBe("Month");
    expect(liveRegistry().properties.billingPlan?.billingPeriod).toBe("monthly");
    expect(outputs["images.adminPasswordLastSetDate"]).toBe(
      liveRegistry().data?.private?.adminPasswordLastSetDate,
    );
    await expectSettled();
  });

  it("resets the admin password when adminPasswordResetTrigger changes, with exactly the reset call", async () => {
    const before = values(await stack.outputs())["images.adminPasswordLastSetDate"] as string;
    s.emulator.emulator.advanceClock(1000);
    const { calls, outputs, summary } = await up([
      cluster(),
      nightly(),
      images({ adminPasswordResetTrigger: "rotated-1" }),
    ]);
    expect(calls).toEqual(["PUT /registries/registry-0001/resetAdminPassword"]);
    expect(summary.resourceChanges).toEqual({ same: 3, update: 1 });
    const after = outputs["images.adminPasswordLastSetDate"] as string;
    expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
    expect(after).toBe(liveRegistry().data?.private?.adminPasswordLastSetDate);
    expect(outputs["images.adminPasswordResetTrigger"]).toBe("rotated-1");
    await expectSettled();
  });

  it("updates the registry's billing period in place", async () => {
    const { calls, outputs } = await up([cluster(), nightly(), rotatedYearly()]);
    expect(calls).toEqual(["PUT /registries/registry-0001"]);
    expect(outputs["images.billingPeriod"]).toBe("Year");
    expect(liveRegistry().properties.billingPlan?.billingPeriod).toBe("yearly");
    await expectSettled();
  });

  const settled = () => [cluster(), nightly(), rotatedYearly()];

  it("attaches the volume to a node, and refresh keeps the attachment", async () => {
    const { calls, outputs } = await up([...settled(), attachment(nodes[0])]);
    expect(calls).toEqual([`POST ${nodePath(nodes[0])}/attach`]);
    expect(outputs["data.nodeId"]).toBe(nodes[0]);
    // The responses do not show attachments: the service's acceptance is all there is.
    expect(outputs["data.verification"]).toBe("none");
    expect(outputs["data.sizeGb"]).toBe(null);
    s.emulator.emulator.advanceClock(1000);
    expect(s.emulator.emulator.attachments(KAAS)).toEqual([
      { uri: DATA_VOLUME, nodePoolName: "system", nodeId: nodes[0], sizeGb: 10, state: "attached" },
    ]);
    await expectSettled();
    const refreshed = await stack.refresh({ expectNoChanges: true });
    expect(refreshed.summary.resourceChanges).toEqual({ same: 5 });
    const state = await stack.exportStack();
    const kept = state.deployment.resources.find((r: { type: string }) =>
      r.type.endsWith(":VolumeAttachment"),
    );
    expect(kept?.id).toBe(ATTACHMENT_ID);
    expect(kept?.outputs.nodeId).toBe(nodes[0]);
  });

  it("moves the attachment to another node: detach first, then attach", async () => {
    const { calls, outputs, summary } = await up([...settled(), attachment(nodes[1])]);
    expect(calls).toEqual([`POST ${nodePath(nodes[0])}/detach`, `POST ${nodePath(nodes[1])}/attach`]);
    expect(summary.resourceChanges).toEqual({ same: 4, replace: 1 });
    expect(outputs["data.nodeId"]).toBe(nodes[1]);
    expect(outputs["data.verification"]).toBe("none");
    s.emulator.emulator.advanceClock(1000);
    expect(s.emulator.emulator.attachments(KAAS)).toEqual([
      { uri: DATA_VOLUME, nodePoolName: "system", nodeId: nodes[1], sizeGb: 10, state: "attached" },
    ]);
    await expectSettled();
  });

  it("creates a registry declared without billingPeriod, and the service's default is no drift", async () => {
    const plain: Declared = { ...registry({ name: "e2e-plain" }), name: "plain" };
    const { calls, outputs } = await up([...settled(), attachment(nodes[1]), plain]);
    expect(calls).toEqual(["POST /registries", "PUT /registries/registry-0002"]);
    expect(outputs["plain.registryId"]).toBe("registry-0002");
    expect(outputs["plain.billingPeriod"]).toBeUndefined();
    // The service bills an undeclared period hourly and says so; the program left the choice to it.
    expect(liveRegistry("registry-0002").properties.billingPlan?.billingPeriod).toBe("hourly");
    await expectSettled();
  });

  it("destroys everything, the adopted-away backup only with the override, and the cluster after it", async () => {
    s.clearRequests();
    const backupDelete = `DELETE /kaas/${KAAS}/backups/backup-0002`;
    const clusterDelete = `DELETE /kaas/${KAAS}`;
    // The backup carries the owner tag of the stack that adopted it: this stack may not delete it, and the
    // cluster, which the backup depends on, stays too.
    await expect(stack.destroy()).rejects.toThrow(
      foreignDeleteRefusal({
        what: 'KaasBackup "nightly"',
        noun: "backup",
        id: "backup-0002",
        owner: "kinds-adopt/adopt/nightly",
        current: "kinds/dev",
      }),
    );
    const refused = s.mutations();
    expect(refused).not.toContain(backupDelete);
    expect(refused).not.toContain(clusterDelete);

    const allowed = await s.stack(
      "dev",
      stack.workspace.workDir,
      {},
      { VENDOR_ALLOW_FOREIGN_DELETE: "true" },
    );
    s.clearRequests();
    await allowed.destroy();
    const calls = s.mutations();
    const detach = `POST ${nodePath(nodes[1])}/detach`;
    expect([...refused, ...calls].sort()).toEqual(
      [
        detach,
        backupDelete,
        clusterDelete,
        "DELETE /registries/registry-0001",
        "DELETE /registries/registry-0002",
      ].sort(),
    );
    expect(calls.indexOf(backupDelete)).toBeLessThan(calls.indexOf(clusterDelete));
    s.emulator.emulator.advanceClock(60_000);
    const left = s.emulator.emulator.state();
    expect({ kaas: left.kaas, backups: left.backups, registries: left.registries }).toEqual({
      kaas: [],
      backups: [],
      registries: [],
    });
  });
});
