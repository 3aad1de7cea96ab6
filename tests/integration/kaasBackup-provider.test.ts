/** The KaasBackup provider against the emulator. */
import type { KindProvider } from "../../provider";
import { backupInsertBody } from "../../provider/kaasBackup/mapping";
import type { CheckedKaasBackupInputs } from "../../provider/kaasBackup/types";
import { expectedCreationTag, expectedOwnerTag } from "../support/creation-token";
import {
  asChecked,
  checked,
  liveTags,
  expectJsonSafe,
  startHarness,
  BACKEND,
  PROJECT,
  RELEASE_LINE,
  type Harness,
} from "./support/harness";

let h: Harness;
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
  h.emulator.clearRequests();
});
afterEach(async () => {
  await h.close();
});

const OWNER_TAG = expectedOwnerTag("proj/dev/nightly");
const CREATION_TAG = expectedCreationTag("proj/dev/nightly", BACKEND);

/** The tags the service holds on a backup. */
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

/**
 * check + create, then the program's release of the creation tag once the engine has recorded the id: what
 * `pulumi up` does for a new resource.
 */
async function create(overrides: Record<string, unknown> = {}) {
  const inputs = await checked(backups, {}, args(overrides));
  const { id, outs } = await backups.create(inputs);
  await h.release("KaasBackup", id, outs);
  return { id, inputs, outs };
}

it("creates a backup with one POST, waits until Active and returns its outputs; the program's release then removes the creation tag in one PUT", async () => {
  const { id, outs } = await backups.create(await checked(backups, {}, args()));
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
  expect(await liveTags(h, { kind: "KaasBackup", kaasId, id })).toEqual([CREATION_TAG, OWNER_TAG]);

  expect(await h.release("KaasBackup", id, outs)).toBe("retagged");
  expect(h.mutating()).toEqual([
    { method: "POST", path: `/kaas/${kaasId}/backups` },
    { method: "PUT", path: `/kaas/${kaasId}/backups/backup-0001` },
  ]);
  expect(await liveTags(h, { kind: "KaasBackup", kaasId, id })).toEqual([OWNER_TAG]);
  expect(h.lines).toContain(`[vendor-container] KaasBackup "nightly": ${RELEASE_LINE} ${id}`);
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
  h.emulator.clearRequests();
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
])("replaces the backup when %s changes, keeping the creation token of its scope", async (field, patch) => {
  const { id, inputs, outs } = await create();
  const news = await checked(backups, inputs, args(patch));
  expect(await backups.diff(id, outs, news)).toEqual({
    changes: true,
    replaces: [field],
    deleteBeforeReplace: false,
  });
  expect(news.creationToken).toBe(inputs.creationToken);
  // The engine checks the replacement with no old inputs: the same token, which the first backup no longer
  // carries once the program released it. Its lookup still finds the first backup by the owner tag; the
  // state's id (`trackedId`) tells the replacement's create that it is the object being replaced.
  expect((await checked(backups, {}, args(patch))).creationToken).toBe(inputs.creationToken);
  expect(await liveTags(h, { kind: "KaasBackup", kaasId, id })).toEqual([OWNER_TAG]);
});

it("makes a new backup for a replacement, leaving the one the state tracks as it is", async () => {
  const { id, outs } = await create();
  h.emulator.clearRequests();

  const replacement = await backups.create(
    await checked(backups, {}, args({ retentionDays: 30, trackedId: id })),
  );

  expect(replacement.id).not.toBe(id);
  expect(h.mutating()).toEqual([{ method: "POST", path: `/kaas/${kaasId}/backups` }]);
  expect(await liveTags(h, { kind: "KaasBackup", kaasId, id })).toEqual([OWNER_TAG]);
  expect(replacement.outs).toMatchObject({ retentionDays: 30, currentRetentionDays: 30 });
  expect(outs.currentRetentionDays).toBe(7);
});

it("does not create a duplicate after an interrupted create, and leaves its creation tag to the program's release", async () => {
  const inputs = await checked(backups, {}, args());
  const orphan = await h.client.call(
    "createBackup",
    { projectId: PROJECT, kaasId },
    backupInsertBody(asChecked<CheckedKaasBackupInputs>(inputs)),
  );
  expect(orphan.metadata.tags).toEqual([CREATION_TAG, OWNER_TAG]);
  h.emulator.clearRequests();
  const { id, outs } = await backups.create(inputs);
  expect(id).toBe(orphan.metadata.id);
  expect(h.mutating()).toEqual([]);
  expect(await liveTags(h, { kind: "KaasBackup", kaasId, id })).toEqual([CREATION_TAG, OWNER_TAG]);

  await h.release("KaasBackup", id, outs);
  expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${kaasId}/backups/${id}` }]);
  expect(await liveTags(h, { kind: "KaasBackup", kaasId, id })).toEqual([OWNER_TAG]);
});

it("keeps a failed backup in the stack with its id and the service's reason", async () => {
  h.emulator.setFaults({
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
  h.emulator.setFaults({ provisioning: { kaas: "ok", registry: "ok", backup: "stuck" } });
  const inputs = await checked(backups, {}, args({ timeouts: { create: "1s" } }));
  const error = (await backups.create(inputs).catch((e: unknown) => e)) as {
    id: string;
    properties: Record<string, unknown>;
  };
  h.emulator.patchResource("backup", error.id, { state: "Active" });
  const { outs } = await backups.update(error.id, error.properties, inputs);
  expect(outs.state).toBe("Active");
});

it("refreshes out-of-band changes and drops a backup deleted out of band", async () => {
  const { id, outs } = await create();
  h.emulator.patchResource("backup", id, { name: "renamed" });
  const read = await backups.read(id, outs);
  expect(read.inputs).toMatchObject({ name: "renamed" });
  await h.client.call("deleteBackup", { projectId: PROJECT, kaasId, id });
  await h.client.waitUntilGone(() => h.client.find("getBackup", { projectId: PROJECT, kaasId, id }), {
    what: "b",
    path: "/b",
    deadline: Date.now() + 10_000,
  });
  expect((await backups.read(id, read.props)).id).toBe("");
});

it("reads a backup it created back with nothing for the next preview to do, sending nothing", async () => {
  const { id, inputs, outs } = await create();
  h.emulator.clearRequests();
  const read = await backups.read(id, outs);
  expect(read).toEqual({ id, props: outs, inputs: undefined });
  const program = await checked(backups, inputs, args());
  expect(await backups.diff(id, read.props, program)).toEqual({
    changes: false,
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect(h.mutating()).toEqual([]);
});

it("converges a backup changed out of band: the refresh takes the change in, the update puts the declared values back in one PUT", async () => {
  const { id, outs } = await create();
  h.emulator.patchResource("backup", id, {
    name: "renamed-by-hand",
    properties: { billingPeriod: "Hour" },
  });
  const read = await backups.read(id, outs);
  expect(read.inputs).toMatchObject({ name: "renamed-by-hand", billingPeriod: "Hour" });
  expect([read.props.name, read.props.billingPeriod]).toEqual(["renamed-by-hand", "Hour"]);
  const program = await checked(backups, read.inputs!, args());
  expect(await backups.diff(id, read.props, program)).toEqual({
    changes: true,
    replaces: [],
    deleteBeforeReplace: false,
  });
  h.emulator.clearRequests();
  const updated = await backups.update(id, read.props, program);
  expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${kaasId}/backups/${id}` }]);
  expect([updated.outs.name, updated.outs.billingPeriod]).toEqual(["nightly", "Month"]);
  const live = await h.client.call("getBackup", { projectId: PROJECT, kaasId, id });
  expect([live.metadata.name, live.properties.billingPeriod]).toEqual(["nightly", "Month"]);
  expect((await backups.diff(id, updated.outs, program)).changes).toBe(false);
});

/** A backup of `args()` created directly, carrying exactly `tags`; returns its id. */
async function existingBackup(tags: string[]): Promise<string> {
  const body = backupInsertBody(asChecked<CheckedKaasBackupInputs>(await checked(backups, {}, args())));
  const existing = await h.client.call(
    "createBackup",
    { projectId: PROJECT, kaasId },
    {
      ...body,
      metadata: { ...body.metadata, tags },
    },
  );
  h.emulator.clearRequests();
  return existing.metadata.id;
}

it("adopts a backup no resource owns by adoptId, recording its owner in one PUT", async () => {
  const existing = await existingBackup(["keep"]);
  const { id } = await create({ adoptId: existing, tags: ["keep"] });
  expect(id).toBe(existing);
  expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${kaasId}/backups/${id}` }]);
  expect(await liveTags(h, { kind: "KaasBackup", kaasId, id })).toEqual(["keep", OWNER_TAG]);
});

it("refuses to adopt a backup another resource owns, with no mutating request", async () => {
  const existing = await existingBackup([expectedOwnerTag("x/y/z")]);
  await expect(create({ adoptId: existing })).rejects.toThrow(
    `KaasBackup "nightly": adoptId ${existing}: the backup belongs to another resource, "x/y/z" (its owner ` +
      "tag), and adopting it would let two stacks act on it. If that stack no longer tracks it, or is being " +
      'retired, and taking it over is intended, also set adoptFromScope: "x/y/z".',
  );
  expect(h.mutating()).toEqual([]);
  expect(await liveTags(h, { kind: "KaasBackup", kaasId, id: existing })).toEqual([
    expectedOwnerTag("x/y/z"),
  ]);
});

it("adopts a backup another resource owns when adoptFromScope names it, taking over its owner tag", async () => {
  const existing = await existingBackup([expectedOwnerTag("x/y/z")]);
  const { id } = await create({ adoptId: existing, adoptFromScope: "x/y/z" });
  expect(id).toBe(existing);
  expect(h.mutating()).toEqual([{ method: "PUT", path: `/kaas/${kaasId}/backups/${id}` }]);
  expect(await liveTags(h, { kind: "KaasBackup", kaasId, id })).toEqual([OWNER_TAG]);
});

it("deletes a backup, and treats one gone with its cluster as deleted", async () => {
  const first = await create();
  await backups.delete(first.id, first.outs);
  expect(await h.client.find("getBackup", { projectId: PROJECT, kaasId, id: first.id })).toBeUndefined();

  const second = await create({ name: "second", creationScope: "proj/dev/second" });
  await h.kind("Kaas").delete(kaasId, { projectId: PROJECT });
  h.emulator.clearRequests();
  await expect(backups.delete(second.id, second.outs)).resolves.toBeUndefined();
  expect(h.mutating()).toEqual([]);
});

it("returns the creation date and the live type and retention the service reports", async () => {
  const { id, outs } = await create({ type: "Incremental", retentionDays: 30 });
  const live = h.emulator.state().backups.find((b) => b.metadata.id === id)!;
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
