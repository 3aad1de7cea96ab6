/**
 * Every answer of the emulator that has a body satisfies its endpoint's response schema in the endpoint table
 * (`schemas/endpoints.ts`), the schema the REST client reads that answer with: each endpoint is driven once
 * over raw HTTP, under the default wire readings, the strict ones, and the other renderings of attachments
 * and states. The kubeconfig download, which the table leaves as text, is checked against the `{name, content}`
 * schema the client parses it with.
 */
import type { Emulator, WireReadings } from "../../emulator";
import { DEFAULT_DURATIONS, DEFAULT_WIRE, STRICT_WIRE } from "../../emulator";
import { KubeconfigDownload, validateSchema } from "../../schemas";
import {
  ENDPOINTS,
  ENDPOINT_NAMES,
  expandPath,
  type Endpoint,
  type EndpointName,
} from "../../schemas/endpoints";
import {
  PROJECT,
  backupBody,
  kaasBody,
  raw,
  registryBody,
  startHarness,
  type Harness,
} from "./support/harness";

let h: Harness;
let emu: Emulator;

/** Real time is pinned: only clock jumps move the emulator's time. */
const T0 = Date.parse("2030-01-01T00:00:00.000Z");
const VOLUME = `/projects/${PROJECT}/providers/Vendor.Storage/blockStorages/vol-1`;
const OTHER_VOLUME = `/projects/${PROJECT}/providers/Vendor.Storage/blockStorages/vol-2`;

beforeAll(async () => {
  h = await startHarness({ realNow: () => T0, durations: DEFAULT_DURATIONS });
  emu = h.emulator;
});
afterAll(() => h.close());

const post = (path: string, body: unknown) => raw(`${h.api}${path}`, { method: "POST", body });

/** The objects every endpoint is driven against, all settled. */
interface World {
  kaasId: string;
  /** A node of the cluster's `default` pool, with `VOLUME` attached and shown. */
  node: string;
  backupId: string;
  registryId: string;
}

/** An `Active` cluster with a volume attached to a node and an `Active` backup, and an `Active` registry. */
async function world(): Promise<World> {
  const cluster = await post("/kaas", kaasBody());
  const registry = await post("/registries", registryBody());
  expect([cluster.status, registry.status]).toEqual([201, 201]);
  emu.advanceClock(Math.max(DEFAULT_DURATIONS.kaasCreateMs, DEFAULT_DURATIONS.registryCreateMs));
  const kaasId: string = cluster.json.metadata.id;
  const node = emu.nodes(kaasId)[0].nodeIds[0];
  const attached = await post(`/kaas/${kaasId}/nodePools/default/nodes/${node}/attach`, {
    volume: { uri: VOLUME },
  });
  const backup = await post(`/kaas/${kaasId}/backups`, backupBody());
  expect([attached.status, backup.status]).toEqual([202, 201]);
  emu.advanceClock(Math.max(DEFAULT_DURATIONS.attachMs, DEFAULT_DURATIONS.backupCreateMs));
  return { kaasId, node, backupId: backup.json.metadata.id, registryId: registry.json.metadata.id };
}

/** One request of an endpoint: its path parameters, query and body, and the success status it answers. */
interface Drive {
  params: Record<string, string>;
  query?: string;
  body?: unknown;
  status: number;
}

/** How each endpoint is driven: an endpoint of the table without a drive does not compile. */
const DRIVES: { readonly [N in EndpointName]: (w: World) => Drive } = {
  createKaas: () => ({ params: {}, body: kaasBody("second"), status: 201 }),
  listKaas: () => ({ params: {}, status: 200 }),
  getKaas: (w) => ({ params: { id: w.kaasId }, status: 200 }),
  updateKaas: (w) => ({
    params: { id: w.kaasId },
    body: { metadata: { name: "prod" }, properties: { ha: true } },
    status: 200,
  }),
  deleteKaas: (w) => ({ params: { id: w.kaasId }, query: "deleteOnCascade=true", status: 202 }),
  downloadKubeconfig: (w) => ({ params: { id: w.kaasId }, status: 200 }),
  detachVolumeFromCluster: (w) => ({
    params: { id: w.kaasId },
    body: { volume: { uri: VOLUME } },
    status: 202,
  }),
  updateNodePool: (w) => ({
    params: { id: w.kaasId, pool: "default" },
    body: { properties: { nodes: 3 } },
    status: 200,
  }),
  attachVolume: (w) => ({
    params: { id: w.kaasId, pool: "default", node: w.node },
    body: { volume: { uri: OTHER_VOLUME } },
    status: 202,
  }),
  detachVolumeFromNode: (w) => ({
    params: { id: w.kaasId, pool: "default", node: w.node },
    body: { volume: { uri: VOLUME } },
    status: 202,
  }),
  createBackup: (w) => ({ params: { kaasId: w.kaasId }, body: backupBody("second"), status: 201 }),
  listBackups: (w) => ({ params: { kaasId: w.kaasId }, status: 200 }),
  getBackup: (w) => ({ params: { kaasId: w.kaasId, id: w.backupId }, status: 200 }),
  updateBackup: (w) => ({
    params: { kaasId: w.kaasId, id: w.backupId },
    body: { metadata: { name: "nightly" }, properties: { billingPeriod: "Month" } },
    status: 200,
  }),
  deleteBackup: (w) => ({ params: { kaasId: w.kaasId, id: w.backupId }, status: 202 }),
  createRegistry: () => ({ params: {}, body: registryBody("second"), status: 201 }),
  // With the engine version, which only lists fill.
  listRegistries: () => ({ params: {}, query: "loadEngineVersion=true", status: 200 }),
  getRegistry: (w) => ({ params: { id: w.registryId }, status: 200 }),
  updateRegistry: (w) => ({
    params: { id: w.registryId },
    body: { metadata: { name: "images" }, properties: { billingPlan: { billingPeriod: "Hour" } } },
    status: 200,
  }),
  deleteRegistry: (w) => ({ params: { id: w.registryId }, status: 202 }),
  resetAdminPassword: (w) => ({ params: { id: w.registryId }, body: {}, status: 200 }),
};

const READINGS: { label: string; wire: WireReadings }[] = [
  { label: "default", wire: DEFAULT_WIRE },
  { label: "strict", wire: STRICT_WIRE },
  {
    label: "attachments=linkedResources, states=alternate",
    wire: { ...DEFAULT_WIRE, attachments: "linkedResources", states: "alternate" },
  },
];

describe.each(READINGS)("under the $label readings", ({ wire }) => {
  beforeEach(() => {
    emu.reset();
    emu.updateConfig({ wire });
  });

  it.each(ENDPOINT_NAMES)("%s answers a body its response schema accepts, or none", async (name) => {
    const w = await world();
    const drive = DRIVES[name](w);
    const endpoint: Endpoint = ENDPOINTS[name];
    const path = expandPath(endpoint.path, drive.params) + (drive.query ? `?${drive.query}` : "");
    const answer = await raw(`${h.api}${path}`, { method: endpoint.method, body: drive.body });
    expect(answer.status).toBe(drive.status);
    if (endpoint.response) {
      expect(validateSchema(endpoint.response, answer.json)).toEqual([]);
      // A list is checked on its items too: it holds the world's object of its kind.
      if (endpoint.list) expect(answer.json.values.length).toBeGreaterThan(0);
    } else if (endpoint.responseType === "text") {
      expect(validateSchema(KubeconfigDownload, answer.json)).toEqual([]);
    } else {
      expect(answer.text).toBe("");
    }
  });
});
