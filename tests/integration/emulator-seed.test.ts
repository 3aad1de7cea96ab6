/**
 * Seeding a crowded project (`POST /_emulator/seed`, `emulator.seed`): settled objects stored directly, named
 * `<prefix>-0001`..., with ids from the create path's counters, listed, paged and filtered like created ones;
 * and the 400s of a bad seed request.
 */
import type { Emulator } from "../../emulator";
import { KaasList, RegistryList, validateSchema } from "../../schemas";
import {
  DEFAULT_DURATIONS,
  PROJECT,
  kaasBody,
  raw,
  registryBody,
  startHarness,
  type Harness,
} from "./support/harness";

let h: Harness;
let emu: Emulator;

beforeAll(async () => {
  h = await startHarness({ durations: DEFAULT_DURATIONS });
  emu = h.emulator;
});
afterAll(() => h.close());
beforeEach(() => emu.reset());

const seed = (body: unknown) => raw(`${h.url}/_emulator/seed`, { method: "POST", body, token: null });
/** `<prefix>-0001` ... `<prefix>-<count>`. */
const namesOf = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(4, "0")}`);

type Listed = { metadata: { id: string; name: string; tags?: string[] | null }; status: { state: string } };

describe("seeding clusters", () => {
  it("stores 400 Active clusters that a list with limit pages through exactly, without a logged request", async () => {
    const result = emu.seed({ projectId: PROJECT, kind: "kaas", count: 400 });

    expect(result).toEqual({
      projectId: PROJECT,
      kind: "kaas",
      ids: Array.from({ length: 400 }, (_, i) => `kaas-${String(i + 1).padStart(4, "0")}`),
    });
    expect(emu.requests()).toEqual([]);
    const seen: Listed[] = [];
    const totals: number[] = [];
    let next = `${h.api}/kaas?limit=100`;
    while (next !== "") {
      const page = await raw(next);
      expect(page.status).toBe(200);
      expect(validateSchema(KaasList, page.json)).toEqual([]);
      totals.push(page.json.total);
      seen.push(...page.json.values);
      next = page.json.next;
    }
    expect(totals).toEqual([400, 400, 400, 400]);
    expect(seen.map((v) => v.metadata.name)).toEqual(namesOf("seed", 400));
    expect(seen.map((v) => v.metadata.id)).toEqual(result.ids);
    expect([...new Set(seen.map((v) => v.status.state))]).toEqual(["Active"]);
    expect([...new Set(seen.map((v) => JSON.stringify(v.metadata.tags)))]).toEqual(["[]"]);
    expect(emu.requests().map((r) => [r.method, r.query.offset, r.status])).toEqual([
      ["GET", undefined, 200],
      ["GET", "100", 200],
      ["GET", "200", 200],
      ["GET", "300", 200],
    ]);
  });

  it("finds one seeded cluster by name with the default filter reading", async () => {
    emu.seed({ projectId: PROJECT, kind: "kaas", count: 400 });
    expect(emu.getConfig().wire.filters).toBe("membership");

    const answer = await raw(`${h.api}/kaas?filter=${encodeURIComponent('metadata.name:eq("seed-0007")')}`);

    expect(answer.status).toBe(200);
    expect(answer.json.total).toBe(1);
    expect(answer.json.values.map((v: Listed) => [v.metadata.id, v.metadata.name, v.status.state])).toEqual([
      ["kaas-0007", "seed-0007", "Active"],
    ]);
  });

  it("stores clusters in the requested project only, and the next create takes the next id", async () => {
    emu.seed({ projectId: "other", kind: "kaas", count: 3, namePrefix: "crowd" });

    expect((await raw(`${h.api}/kaas`)).json.total).toBe(0);
    const created = await raw(`${h.api}/kaas`, { method: "POST", body: kaasBody("mine") });
    expect(created.json.metadata.id).toBe("kaas-0004");
    const other = await raw(`${h.url}/projects/other/providers/Vendor.Container/kaas`);
    expect(other.json.values.map((v: Listed) => v.metadata.name)).toEqual(namesOf("crowd", 3));
  });
});

describe("the control API", () => {
  it("seeds registries with a name prefix and answers 201 with their ids", async () => {
    const answer = await seed({ projectId: PROJECT, kind: "registry", count: 3, namePrefix: "img" });

    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({
      projectId: PROJECT,
      kind: "registry",
      ids: ["registry-0001", "registry-0002", "registry-0003"],
    });
    const listed = await raw(`${h.api}/registries`);
    expect(validateSchema(RegistryList, listed.json)).toEqual([]);
    expect(listed.json.values.map((v: Listed) => [v.metadata.name, v.status.state])).toEqual([
      ["img-0001", "Active"],
      ["img-0002", "Active"],
      ["img-0003", "Active"],
    ]);
    const created = await raw(`${h.api}/registries`, { method: "POST", body: registryBody() });
    expect(created.json.metadata.id).toBe("registry-0004");
  });

  it("seeds backups of a cluster", async () => {
    const [kaasId] = emu.seed({ projectId: PROJECT, kind: "kaas", count: 1 }).ids;

    const answer = await seed({ projectId: PROJECT, kind: "backup", count: 2, kaasId });

    expect(answer.status).toBe(201);
    expect(answer.json.ids).toEqual(["backup-0001", "backup-0002"]);
    const listed = await raw(`${h.api}/kaas/${kaasId}/backups`);
    expect(listed.json.values.map((v: Listed) => [v.metadata.id, v.metadata.name, v.status.state])).toEqual([
      ["backup-0001", "seed-0001", "Active"],
      ["backup-0002", "seed-0002", "Active"],
    ]);
  });

  it("refuses a bad body with a 400 naming every bad field, and seeds nothing", async () => {
    const answer = await seed({ projectId: "", kind: "volume", count: 5001, namePrefix: "", colour: "red" });

    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([
      {
        fieldName: "colour",
        errorMessage: "is not a seed field (known: projectId, kind, count, namePrefix, kaasId)",
      },
      { fieldName: "projectId", errorMessage: "must be a non-empty string" },
      { fieldName: "kind", errorMessage: "must be one of kaas, registry, backup" },
      { fieldName: "count", errorMessage: "must be an integer from 1 to 5000" },
      { fieldName: "namePrefix", errorMessage: "must be a non-empty string" },
    ]);
    expect(answer.json.detail).toBe(
      "colour: is not a seed field (known: projectId, kind, count, namePrefix, kaasId); " +
        "projectId: must be a non-empty string; kind: must be one of kaas, registry, backup; " +
        "count: must be an integer from 1 to 5000; namePrefix: must be a non-empty string",
    );
    expect(emu.state().counters).toEqual({ kaas: 0, backup: 0, registry: 0 });
  });

  it.each([
    [{ count: 0 }, [{ fieldName: "count", errorMessage: "must be an integer from 1 to 5000" }]],
    [{ count: 2.5 }, [{ fieldName: "count", errorMessage: "must be an integer from 1 to 5000" }]],
    [{ count: "3" }, [{ fieldName: "count", errorMessage: "must be an integer from 1 to 5000" }]],
    [{ kaasId: "kaas-0001" }, [{ fieldName: "kaasId", errorMessage: "is only for kind backup" }]],
    [{ kind: "backup" }, [{ fieldName: "kaasId", errorMessage: "is required for kind backup" }]],
    [
      { kind: "backup", kaasId: "kaas-0404" },
      [{ fieldName: "kaasId", errorMessage: `names no cluster of project "${PROJECT}"` }],
    ],
  ])("refuses %j with a 400 naming the field", async (change, errors) => {
    const answer = await seed({ projectId: PROJECT, kind: "kaas", count: 1, ...change });

    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      title: "One or more validation errors occurred.",
      status: 400,
      errors,
    });
    expect(emu.state().counters).toEqual({ kaas: 0, backup: 0, registry: 0 });
  });

  it("refuses a body that is not an object, and the in-process method throws the same problem", async () => {
    const answer = await seed([1]);
    expect(answer.json.errors).toEqual([{ fieldName: "body", errorMessage: "must be a JSON object" }]);
    expect(() => emu.seed({ projectId: PROJECT, kind: "kaas", count: 0 })).toThrow(
      "count: must be an integer from 1 to 5000",
    );
  });
});
