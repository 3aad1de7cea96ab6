/**
 * `pulumi import` as the provider plugin runs it (`importObject`, the read of a resource with no state), against
 * the emulator under the jest project's wire readings: objects made outside any stack are read into the
 * arguments the import records, with reads only; a program made of those arguments (the code the engine
 * prints) previews with no change; an import id without a project takes the default one; another stack's
 * object, an id of the wrong shape and a missing object are refused with what to do.
 */
import type { KindProvider } from "../../provider";
import type { Inputs } from "../../provider/common/check";
import { zoneLabel } from "../../emulator/kinds/kaas/render";
import { volumeAction } from "../../schemas/volumeAction";
import { ownerTag } from "../../provider/common/resource";
import {
  activeKaas,
  backupBody,
  checked,
  kaasBody,
  pool,
  registryBody,
  startHarness,
  LOCATION,
  PROJECT,
  type Harness,
} from "./support/harness";
import { harnessWire } from "./support/wire";
import { scopeOfUrn } from "../../plugin/urn";

let h: Harness;

beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const SCOPE = "proj/dev/imported";
const VOLUME = "/projects/p-test/providers/Vendor.Storage/blockStorages/scratch-1";
/** A pool's zone as the import reads it: the code where the service answers one, else its display name. */
const zone = (code: string) => (harnessWire()?.dataCenter === "name" ? zoneLabel(code, LOCATION) : code);
/** Settles whatever the emulator is creating. */
const settle = () => h.emulator.advanceClock(10 * 60_000);

/**
 * What the next preview of the program the import printed finds: the program is the imported arguments without
 * the bookkeeping `check` adds, checked against the imported state as the engine checks it, then diffed.
 */
async function previewOfPrinted(kind: KindProvider, imported: { id: string; props: Inputs; inputs: Inputs }) {
  const { creationToken: _token, creationScope: _scope, ...program } = imported.inputs;
  const news = await checked(kind, imported.inputs, { ...program, creationScope: SCOPE });
  return kind.diff(imported.id, imported.props, news);
}

/** Imports `id` as the resource `SCOPE` and checks that it sent nothing that changes the service. */
async function importReadOnly(kind: KindProvider, id: string) {
  h.emulator.clearRequests();
  const imported = await kind.importObject(id, SCOPE);
  expect(h.mutating()).toEqual([]);
  return imported;
}

it("imports a cluster with every argument the service answers, and its printed program previews no change", async () => {
  const workers = pool("workers", {
    nodes: 2,
    autoscaling: true,
    minCount: 1,
    maxCount: 4,
    dataCenter: "ITBG-2",
  });
  const kaasId = await activeKaas(
    h,
    kaasBody(
      "outside",
      {
        nodePools: [pool("system"), workers],
        ha: true,
        podCidr: "10.11.0.0/16",
        securityGroup: { name: "outside-sg" },
        storage: { maxCumulativeVolumeSize: 300 },
        billingPlan: { billingPeriod: "Month" },
        apiServerAccessProfile: { authorizedIpRanges: ["192.168.20.0/24"], enablePrivateCluster: false },
      },
      ["team:data"],
    ),
  );
  const kaas = h.kind("Kaas");
  const imported = await importReadOnly(kaas, kaasId);
  expect(imported.id).toBe(kaasId);
  expect(imported.inputs).toEqual({
    projectId: PROJECT,
    name: "outside",
    location: LOCATION,
    tags: ["team:data"],
    preset: true,
    nodeCidr: { address: "10.10.0.0/16", name: "nodes" },
    podCidr: "10.11.0.0/16",
    securityGroupName: "outside-sg",
    kubernetesVersion: "1.32.5",
    nodePools: [
      { name: "system", nodes: 2, instance: "K2A4", dataCenter: zone("ITBG-1") },
      { ...workers, dataCenter: zone("ITBG-2") },
    ],
    ha: true,
    maxCumulativeVolumeSize: 300,
    billingPeriod: "Month",
    authorizedIpRanges: ["192.168.20.0/24"],
    creationScope: SCOPE,
    creationToken: expect.any(String),
  });
  expect(imported.props).toMatchObject({ kaasId, state: "Active", kubeconfig: expect.any(String) });
  expect(await previewOfPrinted(kaas, imported)).toEqual({
    changes: false,
    replaces: [],
    deleteBeforeReplace: false,
  });
  // With the project in the id: the same object, the same arguments.
  const named = await importReadOnly(kaas, `${PROJECT}/${kaasId}`);
  expect({ id: named.id, inputs: named.inputs }).toEqual({ id: imported.id, inputs: imported.inputs });
});

it("imports a cluster whose upgrade is scheduled with the version and date it is scheduled for", async () => {
  const kaasId = await activeKaas(h);
  const scheduledAt = new Date(Date.now() + 7 * 24 * 3_600_000).toISOString();
  await h.client.call(
    "updateKaas",
    { projectId: PROJECT, id: kaasId },
    {
      metadata: { name: "prod" },
      properties: { kubernetesVersion: { value: "1.33.2", upgradeDate: scheduledAt } },
    },
  );
  settle();
  const kaas = h.kind("Kaas");
  const imported = await importReadOnly(kaas, kaasId);
  expect(imported.props.currentKubernetesVersion).toBe("1.32.5");
  expect(imported.inputs).toMatchObject({ kubernetesVersion: "1.33.2", upgradeDate: expect.any(String) });
  expect(Date.parse(String(imported.inputs.upgradeDate))).toBe(Date.parse(scheduledAt));
  expect((await previewOfPrinted(kaas, imported)).changes).toBe(false);
});

it("imports a backup by its cluster and id, and a registry, each previewing no change", async () => {
  const kaasId = await activeKaas(h);
  const backup = await h.client.call("createBackup", { projectId: PROJECT, kaasId }, backupBody("weekly"));
  // Made without `preset`: the service answers no network of its own (no subnet).
  const { preset: _preset, ...unset } = registryBody("charts").properties;
  const registry = await h.client.call(
    "createRegistry",
    { projectId: PROJECT },
    { ...registryBody("charts"), properties: unset },
  );
  settle();

  const backups = h.kind("KaasBackup");
  const importedBackup = await importReadOnly(backups, `${kaasId}/${backup.metadata.id}`);
  expect(importedBackup.id).toBe(backup.metadata.id);
  expect(importedBackup.inputs).toEqual({
    projectId: PROJECT,
    kaasId,
    name: "weekly",
    location: LOCATION,
    type: "Full",
    retentionDays: 7,
    billingPeriod: "Hour",
    creationScope: SCOPE,
    creationToken: expect.any(String),
  });
  expect((await previewOfPrinted(backups, importedBackup)).changes).toBe(false);

  const registries = h.kind("Registry");
  const importedRegistry = await importReadOnly(registries, `${PROJECT}/${registry.metadata.id}`);
  expect(importedRegistry.inputs).toMatchObject({
    projectId: PROJECT,
    name: "charts",
    location: LOCATION,
    preset: true,
    adminUsername: "registry-admin",
    size: "Small",
    billingPeriod: "Month",
  });
  expect(importedRegistry.inputs).not.toHaveProperty("adminPasswordResetTrigger");
  expect((await previewOfPrinted(registries, importedRegistry)).changes).toBe(false);
});

it("imports an attachment where the cluster shows it on a node, and refuses where it cannot say which", async () => {
  const kaasId = await activeKaas(h, kaasBody("prod", { nodePools: [pool("system", { nodes: 1 })] }));
  const [node] = h.emulator.nodes(kaasId)[0].nodeIds;
  await h.client.call(
    "attachVolume",
    { projectId: PROJECT, id: kaasId, pool: "system", node },
    volumeAction(VOLUME),
  );
  settle();
  const attachments = h.kind("VolumeAttachment");
  const id = `${kaasId}:${VOLUME}`;
  const shows = h.emulator.getConfig().wire.attachments;
  if (shows === "attachedVolumes") {
    const imported = await importReadOnly(attachments, id);
    expect(imported.id).toBe(id);
    expect(imported.inputs).toMatchObject({
      projectId: PROJECT,
      kaasId,
      nodePoolName: "system",
      nodeId: node,
      volumeUri: VOLUME,
    });
    expect((await previewOfPrinted(attachments, imported)).changes).toBe(false);
  } else {
    // The published interface shows no attachments (`STRICT_WIRE`): nothing to record.
    await expect(importReadOnly(attachments, id)).rejects.toThrow(
      `VolumeAttachment "imported": import: cannot read ${VOLUME} on cluster ${kaasId}: the service does not show volume attachments`,
    );
  }
  // Where the cluster shows the volume but not its node, the import cannot record the node: refused.
  h.emulator.updateConfig({ wire: { attachments: "linkedResources" } });
  await expect(importReadOnly(attachments, id)).rejects.toThrow(
    `VolumeAttachment "imported": import: the service shows ${VOLUME} attached to cluster ${kaasId} but not on which node`,
  );
  await expect(importReadOnly(attachments, VOLUME)).rejects.toThrow(
    `VolumeAttachment "imported": import: "${VOLUME}" is not an attachment id; give "[<projectId>/]<kaasId>:<volumeUri>"`,
  );
});

it.each([
  ["no longer tracks it", null, []],
  [
    "still tracks it",
    "urn:pulumi:dev::proj::vendor-container:index:Kaas::cluster",
    [
      '[vendor-container] Kaas "imported": cluster kaas-0001 is also tracked by ' +
        "urn:pulumi:dev::proj::vendor-container:index:Kaas::cluster in this stack's state: remove one of the two " +
        "(pulumi state delete 'urn:pulumi:dev::proj::vendor-container:index:Kaas::cluster'), or both act on one " +
        "cluster",
    ],
  ],
  [
    "cannot be read",
    undefined,
    [
      '[vendor-container] Kaas "imported": cluster kaas-0001 names "proj/dev/cluster" of this stack as its ' +
        "owner, and this stack's state could not be read to tell whether that resource still tracks it: if it " +
        "does, remove one of the two (pulumi state delete with its URN), or both act on one cluster",
    ],
  ],
])(
  "imports an object of another resource of this stack when the state %s, warning when it may",
  async (_case, holder, warnings) => {
    const kaasId = await activeKaas(
      h,
      kaasBody("dev", {}, [ownerTag({ creationScope: "proj/dev/cluster" })!]),
    );
    const warned: string[] = [];
    const spy = jest.spyOn(console, "warn").mockImplementation((line: unknown) => warned.push(String(line)));
    try {
      h.emulator.clearRequests();
      const imported = await h.kind("Kaas").importObject(kaasId, SCOPE, {
        trackerOf: async () =>
          typeof holder === "string" ? { urn: holder, scope: scopeOfUrn(holder) ?? holder } : holder,
      });
      expect(h.mutating()).toEqual([]);
      expect(imported.id).toBe(kaasId);
      expect(imported.inputs.creationScope).toBe(SCOPE);
    } finally {
      spy.mockRestore();
    }
    expect(warned).toEqual(warnings);
  },
);

it("refuses another stack's object, naming how to adopt it, and ids it cannot read", async () => {
  const other = "proj/prod/cluster";
  const kaasId = await activeKaas(h, kaasBody("prod", {}, [ownerTag({ creationScope: other })!]));
  const kaas = h.kind("Kaas");
  await expect(importReadOnly(kaas, kaasId)).rejects.toThrow(
    `Kaas "imported": import: the cluster ${kaasId} belongs to "${other}" (its owner tag), a resource of ` +
      `stack "proj/prod", and importing it here would let two stacks act on it. If "proj/prod" no longer ` +
      `tracks it, or is being retired, and taking it over is intended, declare this resource with adoptId: ` +
      `"${kaasId}" and adoptFromScope: "${other}" instead of importing it.`,
  );
  await expect(importReadOnly(kaas, "kaas-0999")).rejects.toThrow(
    `Kaas "imported": import: no cluster kaas-0999 in project ${PROJECT}`,
  );
  await expect(importReadOnly(h.kind("KaasBackup"), "backup-0001")).rejects.toThrow(
    `KaasBackup "imported": import: "backup-0001" does not name an object; give "<projectId>/<kaasId>/<id>"`,
  );
  delete h.config["vendor:projectId"];
  await expect(importReadOnly(kaas, kaasId)).rejects.toThrow(
    `Kaas "imported": import: "${kaasId}" does not name an object; give "<projectId>/<id>" ` +
      "(no project in the id, and no default project is configured: vendor:projectId)",
  );
});
