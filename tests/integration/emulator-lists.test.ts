/**
 * List endpoints of the emulator over raw HTTP: the envelope, offset/limit paging and its links, the filter
 * grammar, sort, projection, and the 400s of malformed queries.
 */
import type { Emulator } from "../../emulator";
import { DEFAULT_DURATIONS } from "../../emulator";
import { BackupList, KaasList, RegistryList, validateSchema } from "../../schemas";
import { backupBody, kaasBody, pool, raw, registryBody, startHarness, type Harness } from "./support/harness";

let h: Harness;
let emu: Emulator;
const T0 = Date.parse("2030-01-01T00:00:00.000Z");

beforeAll(async () => {
  h = await startHarness({ realNow: () => T0, durations: DEFAULT_DURATIONS });
  emu = h.emulator;
  // Six clusters: c, a, f and d are Active (created 1.6 s apart), b and e still InCreation; d has two pools.
  const specs: [string, string[], number][] = [
    ["c", ["env:prod", "team:x"], 2],
    ["a", ["env:dev"], 1],
    ["f", [], 3],
    ["d", ["env:prod"], 2],
    ["b", ["env:dev", "team:x"], 1],
    ["e", ["env:prod"], 5],
  ];
  for (const [name, tags, nodes] of specs) {
    const pools =
      name === "d"
        ? [pool("default", { nodes }), pool("gpu", { nodes: 1, instance: "K8A32" })]
        : [pool("default", { nodes })];
    const created = await raw(`${h.api}/kaas`, {
      method: "POST",
      body: kaasBody(name, { nodePools: pools }, tags),
    });
    expect(created.status).toBe(201);
    if (name !== "b" && name !== "e") emu.advanceClock(DEFAULT_DURATIONS.kaasCreateMs);
    emu.advanceClock(100);
  }
  // A cluster of another project is never listed here.
  await raw(`${h.url}/projects/other/providers/Vendor.Container/kaas`, {
    method: "POST",
    body: kaasBody("z"),
  });
});
afterAll(() => h.close());

async function list(query: string) {
  const answer = await raw(`${h.api}/kaas${query}`);
  return answer;
}

async function names(query: string): Promise<string[]> {
  const answer = await list(query);
  expect(answer.status).toBe(200);
  return answer.json.values.map((v: { metadata: { name: string } }) => v.metadata.name);
}

describe("list envelope and paging", () => {
  it("answers every cluster of the project with total and empty prev/next on a single page", async () => {
    const answer = await list("");
    expect(validateSchema(KaasList, answer.json)).toEqual([]);
    const base = `${h.api}/kaas`;
    expect(answer.json).toMatchObject({
      total: 6,
      self: `${base}?offset=0&limit=25`,
      prev: "",
      next: "",
      first: `${base}?offset=0&limit=25`,
      last: `${base}?offset=0&limit=25`,
    });
    expect(answer.json.values.map((v: { metadata: { name: string } }) => v.metadata.name)).toEqual([
      "c",
      "a",
      "f",
      "d",
      "b",
      "e",
    ]);
  });

  it("pages with offset and limit and links every page, keeping the other parameters", async () => {
    const answer = await list("?api-version=1&sort=metadata.name&offset=2&limit=2");
    const link = (offset: number) =>
      `${h.api}/kaas?api-version=1&sort=metadata.name&offset=${offset}&limit=2`;
    expect(answer.json).toMatchObject({
      total: 6,
      self: link(2),
      prev: link(0),
      next: link(4),
      first: link(0),
      last: link(4),
    });
    expect(answer.json.values.map((v: { metadata: { name: string } }) => v.metadata.name)).toEqual([
      "c",
      "d",
    ]);
    const lastPage = await list("?sort=metadata.name&offset=4&limit=4");
    expect(lastPage.json.next).toBe("");
    expect(lastPage.json.values).toHaveLength(2);
    expect((await list("?offset=10")).json).toMatchObject({ total: 6, values: [] });
  });

  it("defaults to 25 per page and refuses more than 100", async () => {
    const refused = await list("?limit=101");
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      title: "Invalid query parameter.",
      errors: [{ fieldName: "limit", errorMessage: "must be an integer between 1 and 100" }],
    });
    expect((await list("?offset=-1")).json.errors).toEqual([
      { fieldName: "offset", errorMessage: "must be an integer >= 0" },
    ]);
  });
});

describe("filter", () => {
  it.each([
    ['metadata.name:eq("d")', ["d"]],
    ['metadata.name:ne("d")', ["c", "a", "f", "b", "e"]],
    ['status.state:in("InCreation","Updating")', ["b", "e"]],
    ['status.state:nin("InCreation")', ["c", "a", "f", "d"]],
    ['metadata.tags:eq("env:prod")', ["c", "d", "e"]],
    ['metadata.tags:eq("env:prod");metadata.tags:eq("team:x")', ["c"]],
    ['metadata.tags:in("team:x","env:dev")', ["c", "a", "b"]],
    ['properties.nodePools.name:eq("gpu")', ["d"]],
    ["properties.nodePools.nodes:gte(3)", ["f", "e"]],
    ["properties.nodePools.nodes:between(2,3)", ["c", "f", "d"]],
    ["properties.managementIp:exists()", ["c", "a", "f", "d"]],
    ["properties.managementIp:exists(false)", ["b", "e"]],
    ['metadata.creationDate:lt("2030-01-01T00:00:04")', ["c", "a", "f"]],
    ['metadata.name:gt("c");status.state:eq("Active")', ["f", "d"]],
  ])("filter=%s", async (filter, expected) => {
    expect(await names(`?filter=${encodeURIComponent(filter)}`)).toEqual(expected);
  });

  it.each([
    ["metadata.name:eq(prod)", 'bad value prod in "metadata.name:eq(prod)": strings must be double-quoted'],
    [
      'metadata.name:like("p")',
      'unknown operator "like" (known: eq, ne, in, nin, exists, gt, gte, lt, lte, between)',
    ],
    ["metadata.name", '"metadata.name" is not of the form field:op(args)'],
    ['metadata.name:eq("a","b")', 'eq takes 1 argument(s), got 2 in "metadata.name:eq("a","b")"'],
    ['metadata.name:eq("open', "unterminated string literal"],
  ])("refuses filter=%s with a 400 naming filter", async (filter, message) => {
    const answer = await list(`?filter=${encodeURIComponent(filter)}`);
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([{ fieldName: "filter", errorMessage: message }]);
  });
});

describe("sort and projection", () => {
  it("sorts by dotted paths, - for descending, with ties broken by the next key", async () => {
    expect(await names("?sort=-metadata.name")).toEqual(["f", "e", "d", "c", "b", "a"]);
    expect(await names("?sort=status.state,-metadata.name")).toEqual(["f", "d", "c", "a", "e", "b"]);
    expect((await list("?sort=metadata..name")).json.errors).toEqual([
      {
        fieldName: "sort",
        errorMessage: '"metadata..name" is not a dotted field path (prefix - for descending)',
      },
    ]);
  });

  it("keeps only the projected top-level keys, always with metadata", async () => {
    const answer = await list("?projection=status&limit=1");
    expect(Object.keys(answer.json.values[0])).toEqual(["metadata", "status"]);
    expect((await list("?projection=spec")).json.errors).toEqual([
      {
        fieldName: "projection",
        errorMessage: 'unknown key(s) "spec" (known: metadata, status, properties, data)',
      },
    ]);
  });
});

describe("backup and registry lists", () => {
  it("lists the backups of one cluster and the registries of the project, filtered", async () => {
    const [cluster] = (await list('?filter=metadata.name:eq("a")')).json.values;
    const id = cluster.metadata.id;
    await raw(`${h.api}/kaas/${id}/backups`, { method: "POST", body: backupBody("one") });
    await raw(`${h.api}/kaas/${id}/backups`, { method: "POST", body: backupBody("two") });
    const backups = await raw(
      `${h.api}/kaas/${id}/backups?filter=${encodeURIComponent('metadata.name:eq("two")')}`,
    );
    expect(validateSchema(BackupList, backups.json)).toEqual([]);
    expect(backups.json.total).toBe(1);
    expect(backups.json.values[0].properties.kaas.name).toBe("a");

    await raw(`${h.api}/registries`, { method: "POST", body: registryBody("r1") });
    await raw(`${h.api}/registries`, { method: "POST", body: registryBody("r2") });
    const registries = await raw(`${h.api}/registries?sort=-metadata.name&limit=1`);
    expect(validateSchema(RegistryList, registries.json)).toEqual([]);
    expect(registries.json).toMatchObject({ total: 2, values: [{ metadata: { name: "r2" } }] });
  });
});
