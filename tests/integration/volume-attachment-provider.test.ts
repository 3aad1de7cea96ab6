/** The VolumeAttachment provider against the emulator. */
import type { KindProvider } from "../../provider";
import { checked, startHarness, PROJECT, type ProviderHarness } from "./provider-harness";

let h: ProviderHarness;
let attachments: KindProvider;
let kaasId: string;
let nodes: string[];
const VOLUME = "/projects/p-test/providers/Vendor.Storage/blockStorages/vol-1";

beforeEach(async () => {
  h = await startHarness();
  attachments = h.kind("VolumeAttachment");
  const kaas = h.kind("Kaas");
  const inputs = await checked(
    kaas,
    {},
    {
      name: "prod",
      location: "ITBG-Bergamo",
      kubernetesVersion: "1.32.5",
      nodeCidr: { address: "10.10.0.0/16", name: "n" },
      nodePools: [{ name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" }],
      maxCumulativeVolumeSize: 100,
      creationScope: "proj/dev/prod",
    },
  );
  const created = await kaas.create(inputs);
  kaasId = created.id;
  nodes = (created.outs.currentNodePools as { nodeIds: string[] }[])[0].nodeIds;
  h.running.emulator.clearRequests();
});
afterEach(async () => {
  await h.close();
});

const args = (overrides: Record<string, unknown> = {}) => ({
  kaasId,
  nodePoolName: "system",
  nodeId: nodes[0],
  volumeUri: VOLUME,
  creationScope: "proj/dev/data",
  ...overrides,
});

async function attachedTo(): Promise<(string | null | undefined)[]> {
  const live = await h.client.getKaas(PROJECT, kaasId);
  return (live.properties.attachedVolumes ?? []).filter((v) => v.uri === VOLUME).map((v) => v.nodeId);
}

it("attaches at node level and waits until the cluster lists the attachment", async () => {
  const inputs = await checked(attachments, {}, args());
  const { id, outs } = await attachments.create(inputs);
  expect(id).toBe(`${kaasId}:${VOLUME}`);
  expect(outs).toMatchObject({ nodeId: nodes[0], sizeGb: 10 });
  expect(h.mutating()).toEqual([
    { method: "POST", path: `/kaas/${kaasId}/nodePools/system/nodes/${nodes[0]}/attach` },
  ]);
  expect(await attachedTo()).toEqual([nodes[0]]);
});

it("replaces on any change, detaching before attaching", async () => {
  const inputs = await checked(attachments, {}, args());
  const { id, outs } = await attachments.create(inputs);
  const moved = await checked(attachments, inputs, args({ nodeId: nodes[1] }));
  expect(await attachments.diff(id, outs, moved)).toEqual({
    changes: true,
    replaces: ["nodeId"],
    deleteBeforeReplace: true,
  });
  // The engine runs delete, then create.
  h.running.emulator.clearRequests();
  await attachments.delete(id, outs);
  await attachments.create(moved);
  expect(h.mutating()).toEqual([
    { method: "POST", path: `/kaas/${kaasId}/nodePools/system/nodes/${nodes[0]}/detach` },
    { method: "POST", path: `/kaas/${kaasId}/nodePools/system/nodes/${nodes[1]}/attach` },
  ]);
  expect(await attachedTo()).toEqual([nodes[1]]);
});

it("falls back to the cluster-level detach when the node is gone", async () => {
  const inputs = await checked(attachments, {}, args({ nodeId: nodes[1] }));
  const { id, outs } = await attachments.create(inputs);
  h.running.emulator.scaleNodePool(kaasId, "system", 1);
  h.running.emulator.clearRequests();
  await attachments.delete(id, outs);
  expect(h.mutating()).toEqual([
    { method: "POST", path: `/kaas/${kaasId}/nodePools/system/nodes/${nodes[1]}/detach` },
    { method: "POST", path: `/kaas/${kaasId}/detach` },
  ]);
  expect(await attachedTo()).toEqual([]);
});

it("treats an already detached volume as deleted, and read reports it gone", async () => {
  const inputs = await checked(attachments, {}, args());
  const { id, outs } = await attachments.create(inputs);
  await h.client.detachVolumeFromCluster(PROJECT, kaasId, VOLUME);
  await h.client.waitUntilSettled(() => h.client.findKaas(PROJECT, kaasId), {
    what: "k",
    path: "/k",
    deadline: Date.now() + 5000,
  });
  for (let i = 0; i < 100 && (await attachedTo()).length > 0; i++)
    await new Promise((r) => setTimeout(r, 20));
  expect((await attachments.read(id, outs)).id).toBe("");
  h.running.emulator.clearRequests();
  await expect(attachments.delete(id, outs)).resolves.toBeUndefined();
  expect(h.mutating()).toEqual([]);
});

it("fails with a message naming the storage limit when the service refuses for it", async () => {
  h.running.emulator.updateConfig({ volumeSizesGb: { [VOLUME]: 500 } });
  const inputs = await checked(attachments, {}, args());
  await expect(attachments.create(inputs)).rejects.toThrow(
    `VolumeAttachment "data": attaching ${VOLUME} would exceed the cluster's storage limit maxCumulativeVolumeSize (100 GB)`,
  );
});

it("takes over an attachment that already exists on the same node, and refuses one on another node", async () => {
  await h.client.attachVolume(PROJECT, kaasId, "system", nodes[0], VOLUME);
  for (let i = 0; i < 100 && (await attachedTo()).length === 0; i++)
    await new Promise((r) => setTimeout(r, 20));
  h.running.emulator.clearRequests();
  const inputs = await checked(attachments, {}, args({ adoptId: `${kaasId}:${VOLUME}` }));
  const { id } = await attachments.create(inputs);
  expect(id).toBe(`${kaasId}:${VOLUME}`);
  expect(h.mutating()).toEqual([]);
  const elsewhere = await checked(attachments, {}, args({ nodeId: nodes[1] }));
  await expect(attachments.create(elsewhere)).rejects.toThrow(
    `is already attached to node ${nodes[0]} of cluster ${kaasId}; detach it first`,
  );
});

it("reports a volume moved out of band, so the next up moves it back", async () => {
  const inputs = await checked(attachments, {}, args());
  const { id, outs } = await attachments.create(inputs);
  await h.client.detachVolumeFromNode(PROJECT, kaasId, "system", nodes[0], VOLUME);
  for (let i = 0; i < 100 && (await attachedTo()).length > 0; i++)
    await new Promise((r) => setTimeout(r, 20));
  await h.client.attachVolume(PROJECT, kaasId, "system", nodes[1], VOLUME);
  for (let i = 0; i < 100 && (await attachedTo()).length === 0; i++)
    await new Promise((r) => setTimeout(r, 20));
  const read = await attachments.read(id, outs);
  expect(read.inputs).toMatchObject({ nodeId: nodes[1] });
  expect((await attachments.diff(id, read.props, inputs)).replaces).toEqual(["nodeId"]);
});
