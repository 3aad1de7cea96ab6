/**
 * Lists against the emulator: a list asked with a projection answers partial objects,
 * checked against the deep-partial item schema and handed back as the service projected them; an item the
 * client cannot read (a null `metadata.id`, a pool without a name, as the published schemas allow) is left
 * out with one warning naming its offset, its id when it has one, and the field, in the SDK's functions and
 * in the providers' lookups alike; the object a resource manages, read by id, fails naming the field.
 */
import type { EmulatorStateSnapshot } from "../../emulator";
import type { KindProvider } from "../../provider";
import type { BackupResponse, KaasResponse, RegistryResponse } from "../../schemas";
import type { Projected } from "../../schemas/projection";
import { collect, type UnreadableItem } from "../../rest/paginate";
import {
  listBackups,
  listKaas,
  listRegistries,
  type BackupInfo,
  type KaasInfo,
  type RegistryInfo,
} from "../../sdk";
import { checked, startHarness, PROJECT, TOKEN, type Harness } from "./support/harness";

let h: Harness;
let options: { settings: { baseUrl: string; token: string; projectId: string } };
/** The warnings the SDK's functions printed (`pulumi.log.warn` outside an engine writes to console.warn). */
let warnings: string[];

beforeEach(async () => {
  h = await startHarness();
  options = { settings: { baseUrl: h.url, token: TOKEN, projectId: PROJECT } };
  warnings = [];
  jest.spyOn(console, "warn").mockImplementation((line: unknown) => {
    warnings.push(String(line));
  });
  const emulator = h.emulator;
  emulator.seed({ projectId: PROJECT, kind: "kaas", count: 3, namePrefix: "c" });
  emulator.seed({ projectId: PROJECT, kind: "backup", count: 2, namePrefix: "b", kaasId: "kaas-0001" });
  emulator.seed({ projectId: PROJECT, kind: "registry", count: 2, namePrefix: "r" });
});
afterEach(async () => {
  jest.restoreAllMocks();
  await h.close();
});

/** The emulator's own objects of one kind, with only the keys a projection keeps (metadata always). */
function projectedTruth(kind: "kaas" | "backups" | "registries", keys: string[]): Record<string, unknown>[] {
  const objects: EmulatorStateSnapshot[typeof kind] = h.emulator.state()[kind];
  return objects.map((item) =>
    Object.fromEntries(Object.entries(item).filter(([key]) => ["metadata", ...keys].includes(key))),
  );
}

/** Marks one stored object malformed in every answer that shows it. */
const malform = (kind: "kaas" | "backup" | "registry", id: string, overrides: Record<string, unknown>) =>
  h.emulator.patchResource(kind, id, { wireOverrides: overrides });

describe("the emulator's malformed answers", () => {
  it("show the override in the list and the GET of the object, until {} removes it", async () => {
    malform("kaas", "kaas-0002", { "/metadata/id": null, "/properties/nodePools/0/name": null });
    const raw = async (path: string) =>
      (await fetch(`${h.url}/projects/${PROJECT}/providers/Vendor.Container${path}?api-version=1`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      }).then((r) => r.json())) as KaasResponse & { values: KaasResponse[] };

    const listed = (await raw("/kaas")).values[1];
    const read = await raw("/kaas/kaas-0002");
    expect([listed.metadata.id, listed.properties.nodePools?.[0].name]).toEqual([null, null]);
    expect([read.metadata.id, read.properties.nodePools?.[0].name]).toEqual([null, null]);
    expect(read.metadata.name).toBe("c-0002");

    malform("kaas", "kaas-0002", {});
    expect((await raw("/kaas/kaas-0002")).metadata.id).toBe("kaas-0002");
  });

  it("refuse an override whose key is not a JSON pointer", () => {
    expect(() => malform("kaas", "kaas-0001", { "metadata/id": null })).toThrow(
      "wireOverrides.metadata/id: must be a JSON pointer below the root, such as /metadata/id",
    );
  });
});

describe("a list with a projection", () => {
  it("listKaas answers each cluster as projected: its metadata and the named keys, nothing else", async () => {
    const clusters: Projected<KaasResponse>[] = await listKaas({ projection: "status" }, options);

    expect(clusters).toEqual(projectedTruth("kaas", ["status"]));
    expect(clusters.map((c) => Object.keys(c))).toEqual([
      ["metadata", "status"],
      ["metadata", "status"],
      ["metadata", "status"],
    ]);
    expect(warnings).toEqual([]);
  });

  it("listBackups answers each backup as projected", async () => {
    const backups: Projected<BackupResponse>[] = await listBackups(
      { kaasId: "kaas-0001", projection: "properties" },
      options,
    );

    expect(backups).toEqual(projectedTruth("backups", ["properties"]));
    expect(backups.map((b) => b.metadata?.id)).toEqual(["backup-0001", "backup-0002"]);
  });

  it("listRegistries answers each registry as projected", async () => {
    const registries: Projected<RegistryResponse>[] = await listRegistries(
      { projection: "status,properties" },
      options,
    );

    expect(registries).toEqual(projectedTruth("registries", ["status", "properties"]));
    expect(registries.map((r) => r.metadata?.id)).toEqual(["registry-0001", "registry-0002"]);
  });

  it("without a projection the functions still answer the described shapes", async () => {
    const clusters: KaasInfo[] = await listKaas({}, options);
    const backups: BackupInfo[] = await listBackups({ kaasId: "kaas-0001" }, options);
    const registries: RegistryInfo[] = await listRegistries({}, options);

    expect(clusters.map((c) => [c.kaasId, c.name])).toEqual([
      ["kaas-0001", "c-0001"],
      ["kaas-0002", "c-0002"],
      ["kaas-0003", "c-0003"],
    ]);
    expect(backups.map((b) => b.name)).toEqual(["b-0001", "b-0002"]);
    expect(registries.map((r) => r.name)).toEqual(["r-0001", "r-0002"]);
  });

  it("the client's page of a projected list holds the projected items", async () => {
    const page = await h.client.list("listKaas", { projectId: PROJECT }, { projection: "status", limit: 2 });

    expect(page.values).toEqual(projectedTruth("kaas", ["status"]).slice(0, 2));
    expect(page.unreadable).toEqual([]);
    expect(page.total).toBe(3);
  });

  it("skips a projected item whose field has the wrong type, with the warning naming it", async () => {
    malform("kaas", "kaas-0002", { "/status/state": 7 });

    const clusters = await listKaas({ projection: "status" }, options);

    expect(clusters.map((c) => c.metadata?.id)).toEqual(["kaas-0001", "kaas-0003"]);
    expect(warnings).toEqual([
      "warning: [runtime] listKaas: GET /kaas: skipped item kaas-0002 at offset 1, which the client cannot " +
        "read: /status/state: must be string",
    ]);
  });
});

describe("a list holding an item the client cannot read", () => {
  it("listKaas answers the others and warns once, naming the offset and the field", async () => {
    malform("kaas", "kaas-0002", { "/metadata/id": null });

    const clusters = await listKaas({}, options);

    expect(clusters.map((c) => c.kaasId)).toEqual(["kaas-0001", "kaas-0003"]);
    expect(warnings).toEqual([
      "warning: [runtime] listKaas: GET /kaas: skipped the item at offset 1, which the client cannot read: " +
        "/metadata/id: must be string",
    ]);
  });

  it("names an item by its id when it has one, and every problem of it", async () => {
    malform("kaas", "kaas-0003", { "/properties/nodePools/0/name": null, "/metadata/tags": "a" });

    const clusters = await listKaas({}, options);

    expect(clusters.map((c) => c.kaasId)).toEqual(["kaas-0001", "kaas-0002"]);
    expect(warnings).toEqual([
      "warning: [runtime] listKaas: GET /kaas: skipped item kaas-0003 at offset 2, which the client cannot " +
        "read: /metadata/tags: must be array; /properties/nodePools/0/name: must be string",
    ]);
  });

  it("listBackups and listRegistries skip theirs the same way", async () => {
    malform("backup", "backup-0001", { "/metadata/id": null });
    malform("registry", "registry-0002", { "/metadata/id": "" });

    expect((await listBackups({ kaasId: "kaas-0001" }, options)).map((b) => b.backupId)).toEqual([
      "backup-0002",
    ]);
    expect((await listRegistries({}, options)).map((r) => r.registryId)).toEqual(["registry-0001"]);
    expect(warnings).toEqual([
      "warning: [runtime] listBackups: GET /kaas/kaas-0001/backups: skipped the item at offset 0, which the " +
        "client cannot read: /metadata/id: must be string",
      "warning: [runtime] listRegistries: GET /registries: skipped the item at offset 1, which the client " +
        "cannot read: /metadata/id: must NOT have fewer than 1 characters",
    ]);
  });

  it("the client's iteration counts skipped items in the paging and reports each at its offset", async () => {
    malform("kaas", "kaas-0001", { "/metadata/id": null });
    malform("kaas", "kaas-0003", { "/properties/nodePools/0/name": null });
    const lines: string[] = [];
    const onUnreadable = (line: string) => lines.push(line);

    const clusters = await collect(h.client.iterate("listKaas", { projectId: PROJECT }, { onUnreadable }, 1));

    expect(clusters.map((c) => c.metadata.id)).toEqual(["kaas-0002"]);
    expect(lines).toEqual([
      "GET /kaas: skipped the item at offset 0, which the client cannot read: /metadata/id: must be string",
      "GET /kaas: skipped item kaas-0003 at offset 2, which the client cannot read: " +
        "/properties/nodePools/0/name: must be string",
    ]);
    // One page per item, skipped ones included: the paging neither stops early nor asks twice.
    expect(h.emulator.requests().map((r) => [r.method, r.query.offset, r.query.limit])).toEqual([
      ["GET", "0", "1"],
      ["GET", "1", "1"],
      ["GET", "2", "1"],
    ]);
  });

  it("the client's page moves the item out of values into unreadable", async () => {
    malform("kaas", "kaas-0002", { "/metadata/id": null });

    const page = await h.client.list("listKaas", { projectId: PROJECT }, { offset: 1, limit: 2 });

    expect(page.values.map((c) => c.metadata.id)).toEqual(["kaas-0003"]);
    expect(page.unreadable).toEqual<UnreadableItem[]>([
      { offset: 1, problems: [{ path: "/metadata/id", message: "must be string" }] },
    ]);
  });
});

describe("the providers", () => {
  let kaas: KindProvider;
  beforeEach(() => {
    kaas = h.kind("Kaas");
  });

  const args = {
    name: "prod",
    location: "ITBG-Bergamo",
    kubernetesVersion: "1.32.5",
    nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
    nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
    creationScope: "proj/dev/prod",
  };

  it("create a cluster in a project holding a malformed one, with its line in the progress log", async () => {
    // A service that ignores filters answers the creation lookup with the whole project.
    h.emulator.updateConfig({ wire: { filters: "ignored" } });
    malform("kaas", "kaas-0002", { "/metadata/id": null });

    const created = await kaas.create(await checked(kaas, {}, args));

    expect(created.id).toBe("kaas-0004");
    expect(h.lines.filter((l) => l.includes("skipped"))).toEqual([
      '[vendor-container] Kaas "prod": GET /kaas: skipped the item at offset 1, which the client cannot ' +
        "read: /metadata/id: must be string",
    ]);
    expect(warnings).toEqual([]);
  });

  it("find a registry's engine version in a list holding another registry the client cannot read", async () => {
    const registries = h.kind("Registry");
    h.emulator.updateConfig({ wire: { filters: "ignored" } });
    malform("registry", "registry-0001", { "/metadata/id": null });
    const inputs = await checked(
      registries,
      {},
      { name: "images", location: "ITBG-Bergamo", adminUsername: "ops", creationScope: "proj/dev/images" },
    );
    const { id, outs } = await registries.create(inputs);
    h.lines.length = 0;

    const read = await registries.read(id, outs);

    const answered = (
      await h.client.list("listRegistries", { projectId: PROJECT }, { loadEngineVersion: true })
    ).values;
    const version = answered.find((r) => r.metadata.id === id)?.data?.info?.version;
    expect(id).toBe("registry-0003");
    expect(typeof version).toBe("string");
    expect(read.props.engineVersion).toBe(version);
    expect(h.lines.filter((l) => l.includes("skipped"))).toEqual([
      '[vendor-container] Registry "images": GET /registries: skipped the item at offset 0, which the ' +
        "client cannot read: /metadata/id: must be string",
    ]);
  });

  it("fail the read of a cluster whose own answer is malformed, naming the field", async () => {
    const inputs = await checked(kaas, {}, args);
    const { id, outs } = await kaas.create(inputs);
    malform("kaas", id, { "/properties/nodePools/0/name": null });

    await expect(kaas.read(id, outs)).rejects.toThrow(
      `GET /kaas/${id} answered (200): unexpected response body: /properties/nodePools/0/name: must be string`,
    );
  });
});
