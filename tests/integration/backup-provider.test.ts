/** The KaasBackup provider against the emulator. */
import type { KindProvider } from "../../provider";
import { backupInsertBody } from "../../provider/backup/mapping";
import type { CheckedKaasBackupInputs } from "../../provider/backup/types";
import {
  asChecked,
  checked,
  expectJsonSafe,
  startHarness,
  PROJECT,
  type ProviderHarness,
} from "./provider-harness";

let h: ProviderHarness;
let backups: KindProvider;
let kaasId: string;

beforeEach(async () => {
  h = await startHarness();
  backups = h.kind("KaasBackup");
  const kaas = h.kind("Kaas");
  const inputs = await checked(
    kaas,
    {},
    {
      name: "prod",
      location: "ITBG-Bergamo",
      kubernetesVersion: "1.32.5",
      nodeCidr: { address: "10.10.0.0/16", name: "n" },
      nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
      creationScope: "proj/dev/prod",
    },
  );
  kaasId = (await kaas.create(inputs)).id;
  h.running.emulator.clearRequests();
});
afterEach(async () => {
  await h.close();
});

const args = (overrides: Record<string, unknown> = {}) => ({
  kaasId,
  name: "nightly",
  location: "ITBG-Bergamo",
  type: "Full",
  retentionDays: 7,
  billingPeriod: "Month",
  creationScope: "proj/dev/nightly",
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}) {
  const inputs = await checked(backups, {}, args(overrides));
  const { id, outs } = await backups.create(inputs);
  return { id, inputs, outs };
}

it("creates a backup, waits until Active and returns its outputs", async () => {
  const { id, outs } = await create();
  expect(id).toBe("backup-0001");
  expect(outs).toMatchObject({
    backupId: "backup-0001",
    state: "Active",
    kaasId,
    retentionDays: 7,
    cluster: { id: kaasId, name: "prod" },
  });
  expect(outs.expiresAt).toEqual(expect.any(String));
  expectJsonSafe(outs);
  expect(h.mutating()).toEqual([{ method: "POST", path: `/kaas/${kaasId}/backups` }]);
});

it.each([
  ["billingPeriod", { billingPeriod: "Year" }],
  ["name", { name: "nightly-2" }],
  ["tags", { tags: ["keep"] }],
])("updates %s in place", async (_field, patch) => {
  const { id, inputs, outs } = await create();
  const news = await checked(backups, inputs, args(patch));
  expect(await backups.diff(id, outs, news)).toEqual({
    changes: true,
    replaces: [],
    deleteBeforeReplace: false,
  });
  h.running.emulator.clearRequests();
  const updated = await backups.update(id, outs, news);
  expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${kaasId}/backups/${id}` }]);
  expect(updated.outs).toMatchObject(patch);
  expect((await backups.diff(id, updated.outs, news)).changes).toBe(false);
});

it.each([
  ["type", { type: "Incremental" }],
  ["retentionDays", { retentionDays: 30 }],
  ["location", { location: "ITMI-Milano" }],
  ["kaasId", { kaasId: "kaas-0999" }],
])("replaces the backup when %s changes", async (field, patch) => {
  const { id, inputs, outs } = await create();
  const news = await checked(backups, inputs, args(patch));
  expect(await backups.diff(id, outs, news)).toEqual({
    changes: true,
    replaces: [field],
    deleteBeforeReplace: false,
  });
  expect(news.creationToken).not.toBe(inputs.creationToken);
});

it("does not create a duplicate after an interrupted create", async () => {
  const inputs = await checked(backups, {}, args());
  const orphan = await h.client.createBackup(
    PROJECT,
    kaasId,
    backupInsertBody(asChecked<CheckedKaasBackupInputs>(inputs)),
  );
  h.running.emulator.clearRequests();
  expect((await backups.create(inputs)).id).toBe(orphan.metadata.id);
  expect(h.mutating()).toEqual([]);
});

it("keeps a failed backup in the stack with its id and the service's reason", async () => {
  h.running.emulator.setFaults({
    provisioning: { kaas: "ok", registry: "ok", backup: "fail" },
    failureReason: "snapshot failed",
  });
  const inputs = await checked(backups, {}, args());
  const error = (await backups.create({ ...inputs, __provider: "shell" }).catch((e: unknown) => e)) as Record<
    string,
    unknown
  >;
  expect(error.id).toBe("backup-0001");
  expect(error.reasons).toEqual([expect.stringContaining("snapshot failed")]);
  expect(error.properties).toMatchObject({ state: "Failed", __provider: "shell" });
});

it("resumes a backup whose create stopped waiting, in update", async () => {
  h.running.emulator.setFaults({ provisioning: { kaas: "ok", registry: "ok", backup: "stuck" } });
  const inputs = await checked(backups, {}, args({ timeouts: { create: "1s" } }));
  const error = (await backups.create(inputs).catch((e: unknown) => e)) as {
    id: string;
    properties: Record<string, unknown>;
  };
  h.running.emulator.patchResource("backup", error.id, { state: "Active" });
  const { outs } = await backups.update(error.id, error.properties, inputs);
  expect(outs.state).toBe("Active");
});

it("refreshes out-of-band changes and drops a backup deleted out of band", async () => {
  const { id, outs } = await create();
  h.running.emulator.patchResource("backup", id, { name: "renamed" });
  const read = await backups.read(id, outs);
  expect(read.inputs).toMatchObject({ name: "renamed" });
  await h.client.deleteBackup(PROJECT, kaasId, id);
  await h.client.waitUntilGone(() => h.client.findBackup(PROJECT, kaasId, id), {
    what: "b",
    path: "/b",
    deadline: Date.now() + 10_000,
  });
  expect((await backups.read(id, read.props)).id).toBe("");
});

it("adopts an existing backup by adoptId", async () => {
  const seed = await checked(backups, {}, args({ creationScope: "x/y/z" }));
  const existing = await h.client.createBackup(
    PROJECT,
    kaasId,
    backupInsertBody(asChecked<CheckedKaasBackupInputs>(seed)),
  );
  h.running.emulator.clearRequests();
  const { id } = await create({ adoptId: existing.metadata.id });
  expect(id).toBe(existing.metadata.id);
  expect(h.mutating()).toEqual([]);
});

it("deletes a backup, and treats one gone with its cluster as deleted", async () => {
  const first = await create();
  await backups.delete(first.id, first.outs);
  expect(await h.client.findBackup(PROJECT, kaasId, first.id)).toBeUndefined();

  const second = await create({ name: "second", creationScope: "proj/dev/second" });
  await h.kind("Kaas").delete(kaasId, { projectId: PROJECT });
  h.running.emulator.clearRequests();
  await expect(backups.delete(second.id, second.outs)).resolves.toBeUndefined();
  expect(h.mutating()).toEqual([]);
});

it("returns the creation date and the live type and retention the service reports", async () => {
  const { id, outs } = await create({ type: "Incremental", retentionDays: 30 });
  const live = h.running.emulator.state().backups.find((b) => b.metadata.id === id)!;
  expect(live.metadata.creationDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect([outs.creationDate, outs.currentType, outs.currentRetentionDays]).toEqual([
    live.metadata.creationDate,
    "Incremental",
    30,
  ]);
});

it("reports the service's type and retention as null when neither was declared nor answered", async () => {
  const { outs } = await create({ type: undefined, retentionDays: undefined });
  expect([outs.currentType, outs.currentRetentionDays]).toEqual([null, null]);
  expect(outs).not.toHaveProperty("type");
  expect(outs).not.toHaveProperty("retentionDays");
});
