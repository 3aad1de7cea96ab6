/**
 * The emulator's wire reading `attachments` over raw HTTP, with clock jumps instead of waiting: where
 * attached volumes show (`attachedVolumes`, `metadata.linkedResources` or nowhere), that the service's rules
 * hold under every reading, that the control API shows the truth whatever responses show, and that a
 * reading changed at run time applies to the next answer.
 */
import type { Emulator, WireReadings } from "../../emulator";
import { DEFAULT_DURATIONS } from "../../emulator";
import { parseArgs } from "../../emulator/cli";
import { KaasResponse, validateSchema } from "../../schemas";
import { PROJECT, activeKaas, kaasBody, raw, startHarness, type Harness } from "./support/harness";

let h: Harness;
let emu: Emulator;

/** Real time is pinned: only clock jumps move the emulator's time. */
const T0 = Date.parse("2030-01-01T00:00:00.000Z");
const VOLUME = `/projects/${PROJECT}/providers/Vendor.Storage/blockStorages/vol-1`;

beforeAll(async () => {
  h = await startHarness({ realNow: () => T0, durations: DEFAULT_DURATIONS });
  emu = h.emulator;
});
afterAll(() => h.close());
beforeEach(() => emu.reset());

const get = (path: string) => raw(`${h.api}${path}`);
const post = (path: string, body?: unknown) => raw(`${h.api}${path}`, { method: "POST", body });
const control = (path: string, method = "GET", body?: unknown) =>
  raw(`${h.url}/_emulator${path}`, { method, body, token: null });

const attach = (id: string, node: string, uri = VOLUME) =>
  post(`/kaas/${id}/nodePools/default/nodes/${node}/attach`, { volume: { uri } });
const detachNode = (id: string, node: string, uri = VOLUME) =>
  post(`/kaas/${id}/nodePools/default/nodes/${node}/detach`, { volume: { uri } });
const detachCluster = (id: string, uri = VOLUME) => post(`/kaas/${id}/detach`, { volume: { uri } });

/** What a cluster response shows about attachments: the two fields that may carry them. */
async function shown(id: string): Promise<{ attachedVolumes?: unknown; linkedResources?: unknown }> {
  const answer = await get(`/kaas/${id}`);
  expect(answer.status).toBe(200);
  expect(validateSchema(KaasResponse, answer.json)).toEqual([]);
  const out: { attachedVolumes?: unknown; linkedResources?: unknown } = {};
  if ("attachedVolumes" in answer.json.properties)
    out.attachedVolumes = answer.json.properties.attachedVolumes;
  if ("linkedResources" in answer.json.metadata) out.linkedResources = answer.json.metadata.linkedResources;
  return out;
}

async function truth(id: string) {
  const answer = await control(`/kaas/${id}/attachments`);
  expect(answer.status).toBe(200);
  return answer.json.attachments;
}

const READINGS: {
  reading: WireReadings["attachments"];
  none: { attachedVolumes?: unknown; linkedResources?: unknown };
  one: (node: string) => { attachedVolumes?: unknown; linkedResources?: unknown };
}[] = [
  {
    reading: "attachedVolumes",
    none: { attachedVolumes: [] },
    one: (node) => ({
      attachedVolumes: [{ uri: VOLUME, nodePoolName: "default", nodeId: node, sizeGb: 10 }],
    }),
  },
  {
    reading: "linkedResources",
    none: { linkedResources: [] },
    one: () => ({ linkedResources: [{ uri: VOLUME, strictCorrelation: false }] }),
  },
  { reading: "hidden", none: {}, one: () => ({}) },
];

describe.each(READINGS)("attachments=$reading", ({ reading, none, one }) => {
  beforeEach(() => {
    emu.updateConfig({ wire: { attachments: reading } });
  });

  it("shows an attachment as the reading says, once attachMs has passed, and the truth throughout", async () => {
    const id = await activeKaas(h);
    const node = `${id}-default-1`;
    const accepted = await attach(id, node);
    expect(accepted.status).toBe(202);
    expect(accepted.text).toBe("");
    expect(await shown(id)).toEqual(none);
    expect(await truth(id)).toEqual([
      { uri: VOLUME, nodePoolName: "default", nodeId: node, sizeGb: 10, state: "attaching" },
    ]);
    emu.advanceClock(DEFAULT_DURATIONS.attachMs);
    expect(await shown(id)).toEqual(one(node));
    expect(await truth(id)).toEqual([
      { uri: VOLUME, nodePoolName: "default", nodeId: node, sizeGb: 10, state: "attached" },
    ]);
    // The cluster's own linked resources (its VPC and subnet) stay where they were, under every reading.
    expect((await get(`/kaas/${id}`)).json.properties.linkedResources).toEqual([
      { uri: `/projects/${PROJECT}/providers/Vendor.Network/vpcs/vpc-${id}` },
      { uri: `/projects/${PROJECT}/providers/Vendor.Network/vpcs/vpc-${id}/subnets/subnet-${id}` },
    ]);
    expect((await detachNode(id, node)).status).toBe(202);
    expect(await shown(id)).toEqual(one(node));
    expect(await truth(id)).toEqual([
      { uri: VOLUME, nodePoolName: "default", nodeId: node, sizeGb: 10, state: "detaching" },
    ]);
    emu.advanceClock(DEFAULT_DURATIONS.detachMs);
    expect(await shown(id)).toEqual(none);
    expect(await truth(id)).toEqual([]);
  });

  it("refuses a second attach of the volume, and answers 404 to the detach of a volume not attached", async () => {
    const id = await activeKaas(h);
    expect((await attach(id, `${id}-default-1`)).status).toBe(202);
    const again = await attach(id, `${id}-default-2`);
    expect(again.status).toBe(400);
    expect(again.json.errors).toEqual([
      {
        fieldName: "volume.uri",
        errorMessage: `is already attached to KaaS "${id}" (node "${id}-default-1")`,
      },
    ]);
    const elsewhere = await detachNode(id, `${id}-default-2`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.json).toMatchObject({
      title: "Volume not attached",
      detail: `Volume "${VOLUME}" is not attached to node "${id}-default-2".`,
    });
    expect((await detachCluster(id)).status).toBe(202);
    const twice = await detachCluster(id);
    expect(twice.status).toBe(404);
    expect(twice.json.detail).toBe(`Volume "${VOLUME}" is not attached to KaaS "${id}".`);
  });

  it("refuses an attach beyond the storage limit", async () => {
    const created = await post("/kaas", kaasBody("prod", { storage: { maxCumulativeVolumeSize: 20 } }));
    emu.advanceClock(DEFAULT_DURATIONS.kaasCreateMs);
    const id = created.json.metadata.id;
    emu.updateConfig({ volumeSizesGb: { [VOLUME]: 25 } });
    const refused = await attach(id, `${id}-default-1`);
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual([
      {
        fieldName: "volume.uri",
        errorMessage:
          "attaching 25 GB would bring the cluster's volumes to 25 GB, beyond storage.maxCumulativeVolumeSize (20 GB)",
      },
    ]);
    expect(await truth(id)).toEqual([]);
  });
});

it("applies a reading changed through PUT /_emulator/config to the next answer", async () => {
  const id = await activeKaas(h);
  await attach(id, `${id}-default-1`);
  emu.advanceClock(DEFAULT_DURATIONS.attachMs);
  expect(await shown(id)).toEqual({
    attachedVolumes: [{ uri: VOLUME, nodePoolName: "default", nodeId: `${id}-default-1`, sizeGb: 10 }],
  });
  expect((await control("/config", "PUT", { wire: { attachments: "linkedResources" } })).status).toBe(200);
  expect(await shown(id)).toEqual({ linkedResources: [{ uri: VOLUME, strictCorrelation: false }] });
  expect((await control("/config", "PUT", { wire: { attachments: "hidden" } })).status).toBe(200);
  expect(await shown(id)).toEqual({});
  const bad = await control("/config", "PUT", { wire: { attachments: "nodes" } });
  expect(bad.status).toBe(400);
  expect(bad.json.errors).toEqual([
    {
      fieldName: "wire.attachments",
      errorMessage: "must be one of attachedVolumes, linkedResources, hidden",
    },
  ]);
});

it("answers 404 for the attachments of an unknown cluster", async () => {
  const answer = await control("/kaas/kaas-0404/attachments");
  expect(answer.status).toBe(404);
  expect(answer.json.detail).toBe('KaaS "kaas-0404" was not found.');
});

it("hides attachments under --strict, and a later --wire still applies", () => {
  // The whole of what --strict sets is literal in emulator-cli.test.ts.
  expect(parseArgs(["--strict"])).toMatchObject({ wire: { attachments: "hidden" } });
  expect(parseArgs(["--strict", "--wire", "attachments=linkedResources"])).toMatchObject({
    wire: { attachments: "linkedResources", nodeIds: "hidden" },
  });
});

describe('goneNode: the node-level detach of a volume whose node is gone (api-notes "Volumes")', () => {
  it("answers 404 under goneNode=404, for a gone node and a gone pool", async () => {
    const id = await activeKaas(h);
    emu.updateConfig({ wire: { goneNode: "404" } });
    const node = await detachNode(id, `${id}-default-9`);
    expect([node.status, node.json.title, node.json.detail]).toEqual([
      404,
      "Node not found",
      `Node pool "default" of KaaS "${id}" has no node "${id}-default-9".`,
    ]);
    const pool = await post(`/kaas/${id}/nodePools/gone/nodes/${id}-gone-1/detach`, {
      volume: { uri: VOLUME },
    });
    expect([pool.status, pool.json.title]).toEqual([404, "Node pool not found"]);
  });

  it("answers 400 naming nodeId (or nodePoolId) under goneNode=400, in the errors reading's shape", async () => {
    const id = await activeKaas(h);
    emu.updateConfig({ wire: { goneNode: "400", errors: "array" } });
    const node = await detachNode(id, `${id}-default-9`);
    expect([node.status, node.json.errors]).toEqual([
      400,
      [
        {
          fieldName: "nodeId",
          errorMessage: `node "${id}-default-9" does not exist in node pool "default" of KaaS "${id}"`,
        },
      ],
    ]);
    const pool = await post(`/kaas/${id}/nodePools/gone/nodes/${id}-gone-1/detach`, {
      volume: { uri: VOLUME },
    });
    expect([pool.status, pool.json.errors]).toEqual([
      400,
      [{ fieldName: "nodePoolId", errorMessage: `node pool "gone" does not exist in KaaS "${id}"` }],
    ]);
    emu.updateConfig({ wire: { errors: "absent" } });
    const absent = await detachNode(id, `${id}-default-9`);
    expect([absent.status, absent.json.detail]).toEqual([
      400,
      `nodeId: node "${id}-default-9" does not exist in node pool "default" of KaaS "${id}"`,
    ]);
  });
});
