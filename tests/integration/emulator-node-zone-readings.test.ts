/**
 * The emulator's wire readings `nodeIds` and `dataCenter` (emulator/config.ts `WireReadings`) over raw HTTP:
 * each reading's exact rendering, read per response so `PUT /_emulator/config` applies to the next answer;
 * the node ids the control API still lists when responses hide them; and the fields the provider's outputs
 * read (the pod CIDR the service chose, the cluster type, the disable reasons, a preset registry's subnet).
 */
import type { Emulator } from "../../emulator";
import { DEFAULT_DURATIONS, STRICT_WIRE } from "../../emulator";
import { KaasResponse, validateSchema } from "../../schemas";
import { kaasBody, pool, raw, registryBody, startHarness, type Harness } from "./support/harness";

let h: Harness;
let emu: Emulator;

beforeAll(async () => {
  h = await startHarness({
    realNow: () => Date.parse("2030-01-01T00:00:00.000Z"),
    durations: DEFAULT_DURATIONS,
  });
  emu = h.emulator;
});
afterAll(() => h.close());
beforeEach(() => emu.reset());

const get = (path: string) => raw(`${h.api}${path}`);
const post = (path: string, body?: unknown) => raw(`${h.api}${path}`, { method: "POST", body });
const control = (path: string, method = "GET", body?: unknown) =>
  raw(`${h.url}/_emulator${path}`, { method, body });

/** Creates an Active cluster with a pool in ITBG-1 and one in ITBG-3; returns its id. */
async function cluster(overrides: Parameters<typeof kaasBody>[1] = {}): Promise<string> {
  const body = kaasBody("prod", {
    nodePools: [pool("system", { nodes: 2 }), pool("workers", { nodes: 1, dataCenter: "ITBG-3" })],
    ...overrides,
  });
  const created = await post("/kaas", body);
  expect(created.status).toBe(201);
  emu.advanceClock(DEFAULT_DURATIONS.kaasCreateMs);
  return created.json.metadata.id;
}

/** The pools of the cluster as GET answers them: only the fields these readings govern. */
async function poolsOf(id: string): Promise<unknown[]> {
  const body = (await get(`/kaas/${id}`)).json;
  expect(validateSchema(KaasResponse, body)).toEqual([]);
  return body.properties.nodePools.map((p: Record<string, unknown>) => ({
    name: p.name,
    dataCenter: p.dataCenter,
    ...("nodeIds" in p ? { nodeIds: p.nodeIds } : {}),
  }));
}

describe("nodeIds and dataCenter readings", () => {
  it("by default renders zone codes with a display label, and the node ids", async () => {
    const id = await cluster();
    expect(await poolsOf(id)).toEqual([
      {
        name: "system",
        dataCenter: { code: "ITBG-1", name: "Bergamo 1" },
        nodeIds: [`${id}-system-1`, `${id}-system-2`],
      },
      { name: "workers", dataCenter: { code: "ITBG-3", name: "Bergamo 3" }, nodeIds: [`${id}-workers-1`] },
    ]);
  });

  it("under the strict readings renders the published shapes: a display name only, no node ids", async () => {
    emu.updateConfig({ wire: STRICT_WIRE });
    const id = await cluster();
    expect(await poolsOf(id)).toEqual([
      { name: "system", dataCenter: { name: "Bergamo 1" } },
      { name: "workers", dataCenter: { name: "Bergamo 3" } },
    ]);
  });

  it("reads the configuration per response: a change through PUT /_emulator/config applies to the next GET", async () => {
    const id = await cluster();
    const changed = await control("/config", "PUT", { wire: { nodeIds: "hidden", dataCenter: "name" } });
    expect(changed.status).toBe(200);
    expect(changed.json.wire).toMatchObject({ nodeIds: "hidden", dataCenter: "name" });
    expect(await poolsOf(id)).toEqual([
      { name: "system", dataCenter: { name: "Bergamo 1" } },
      { name: "workers", dataCenter: { name: "Bergamo 3" } },
    ]);
    await control("/config", "PUT", { wire: { nodeIds: "shown" } });
    expect(await poolsOf(id)).toEqual([
      { name: "system", dataCenter: { name: "Bergamo 1" }, nodeIds: [`${id}-system-1`, `${id}-system-2`] },
      { name: "workers", dataCenter: { name: "Bergamo 3" }, nodeIds: [`${id}-workers-1`] },
    ]);
  });

  it("labels a zone outside the cluster's region by its code", async () => {
    const id = await cluster({ nodePools: [pool("edge", { dataCenter: "ITMI-2" })] });
    expect(await poolsOf(id)).toEqual([
      {
        name: "edge",
        dataCenter: { code: "ITMI-2", name: "Zone ITMI-2" },
        nodeIds: [`${id}-edge-1`, `${id}-edge-2`],
      },
    ]);
  });

  it("still attaches to a node whose id no response shows, and lists the ids through the control API", async () => {
    emu.updateConfig({ wire: { nodeIds: "hidden" } });
    const id = await cluster();
    const nodes = await control(`/kaas/${id}/nodes`);
    expect(nodes.status).toBe(200);
    expect(nodes.json).toEqual({
      nodes: [
        { nodePool: "system", nodeIds: [`${id}-system-1`, `${id}-system-2`] },
        { nodePool: "workers", nodeIds: [`${id}-workers-1`] },
      ],
    });
    expect(emu.nodes(id)).toEqual(nodes.json.nodes);
    const attached = await post(`/kaas/${id}/nodePools/system/nodes/${id}-system-2/attach`, {
      volume: { uri: "/v/data" },
    });
    expect(attached.status).toBeGreaterThanOrEqual(200);
    expect(attached.status).toBeLessThan(300);
    expect((await control("/kaas/kaas-0404/nodes")).status).toBe(404);
  });
});

describe("fields the provider's outputs read", () => {
  it("answers the pod CIDR the service chose when the create set none, clear of the node CIDR", async () => {
    const chosen = async (nodeCidr: string) => {
      const id = await cluster({ nodeCidr: { address: nodeCidr, name: "nodes" } });
      return (await get(`/kaas/${id}`)).json.properties.podcidr;
    };
    expect(await chosen("10.10.0.0/16")).toEqual({ address: "10.244.0.0/16" });
    expect(await chosen("10.0.0.0/8")).toEqual({ address: "172.30.0.0/16" });
    const id = await cluster({ podCidr: "100.64.0.0/16" });
    expect((await get(`/kaas/${id}`)).json.properties.podcidr).toEqual({ address: "100.64.0.0/16" });
  });

  it("answers the cluster type as the typology: KaaS, or KaaS HA with high availability", async () => {
    const standard = await cluster();
    const ha = await cluster({ ha: true });
    const typology = async (id: string) => (await get(`/kaas/${id}`)).json.metadata.category.typology;
    expect(await typology(standard)).toEqual({ id: "kaas", name: "KaaS" });
    expect(await typology(ha)).toEqual({ id: "kaas-ha", name: "KaaS HA" });
  });

  it("answers the disable reasons set through the control API, and enables again with an empty list", async () => {
    const id = await cluster();
    const disabled = await control(`/resources/kaas/${id}`, "PATCH", { disabledReasons: ["NoCredit"] });
    expect(disabled.json.status.disableStatusInfo).toEqual({
      isDisabled: true,
      reasons: ["NoCredit"],
      previousStatus: null,
    });
    await control(`/resources/kaas/${id}`, "PATCH", { disabledReasons: [] });
    expect((await get(`/kaas/${id}`)).json.status.disableStatusInfo).toEqual({
      isDisabled: false,
      reasons: [],
      previousStatus: null,
    });
  });

  it("answers the subnet a preset registry gets along with its VPC", async () => {
    const created = await post("/registries", registryBody());
    const id = created.json.metadata.id;
    const network = `/projects/p-test/providers/Vendor.Network/vpcs/vpc-${id}`;
    expect([created.json.properties.vpc, created.json.properties.subnet]).toEqual([
      { uri: network },
      { uri: `${network}/subnets/subnet-${id}` },
    ]);
  });
});
