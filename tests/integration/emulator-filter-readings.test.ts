/**
 * The emulator's `wire.filters` readings over raw HTTP, on all three list endpoints: `membership` (default),
 * `whole`, `ignored` and `refused`, set at start (`wire`, `--wire filters=...`, `--strict`) or switched at
 * run time (`PUT /_emulator/config`, `updateConfig`), read on every request.
 */
import { DEFAULT_DURATIONS, type Emulator, type WireReadings } from "../../emulator";
import { parseArgs } from "../../emulator/cli";
import { traceIdOf } from "../../emulator/base/http";
import {
  TOKEN,
  backupBody,
  kaasBody,
  raw,
  registryBody,
  startHarness,
  type Harness,
} from "./support/harness";

type Reading = WireReadings["filters"];

let h: Harness;
let emu: Emulator;
let kaasId: string;

beforeAll(async () => {
  h = await startHarness({ durations: DEFAULT_DURATIONS });
  emu = h.emulator;
  // Tags of the three clusters: exactly ["env:prod"], ["env:prod", "team:x"], none.
  for (const [name, tags] of [
    ["only", ["env:prod"]],
    ["more", ["env:prod", "team:x"]],
    ["none", []],
  ] as [string, string[]][]) {
    expect((await raw(`${h.api}/kaas`, { method: "POST", body: kaasBody(name, {}, tags) })).status).toBe(201);
  }
  // Backups need an Active cluster.
  emu.advanceClock(DEFAULT_DURATIONS.kaasCreateMs);
  kaasId = "kaas-0001";
  for (const name of ["one", "two"]) {
    const backup = { ...backupBody(name), metadata: { ...backupBody(name).metadata, tags: [`b:${name}`] } };
    expect((await raw(`${h.api}/kaas/${kaasId}/backups`, { method: "POST", body: backup })).status).toBe(201);
  }
  for (const name of ["r1", "r2"]) {
    expect((await raw(`${h.api}/registries`, { method: "POST", body: registryBody(name) })).status).toBe(201);
  }
});
afterEach(() => {
  emu.updateConfig({ wire: { filters: "membership" } });
});
afterAll(() => h.close());

const filtered = (path: string, filter: string, extra = "") =>
  raw(`${h.api}${path}?filter=${encodeURIComponent(filter)}${extra}`);

const namesOf = (json: { values: { metadata: { name: string } }[] }) =>
  json.values.map((v) => v.metadata.name);

describe.each<[Reading, string[], string[]]>([
  // [reading, clusters listed for metadata.tags:eq("env:prod"), clusters for metadata.name:eq("more")]
  ["membership", ["only", "more"], ["more"]],
  ["whole", ["only"], ["more"]],
  ["ignored", ["only", "more", "none"], ["only", "more", "none"]],
])("%s", (reading, byTag, byName) => {
  beforeEach(() => {
    emu.updateConfig({ wire: { filters: reading } });
  });

  it(`lists ${byTag.join(", ")} for metadata.tags:eq("env:prod")`, async () => {
    const answer = await filtered("/kaas", 'metadata.tags:eq("env:prod")');
    expect(answer.status).toBe(200);
    expect(answer.json.total).toBe(byTag.length);
    expect(namesOf(answer.json)).toEqual(byTag);
  });

  it(`lists ${byName.join(", ")} for metadata.name:eq("more")`, async () => {
    const answer = await filtered("/kaas", 'metadata.name:eq("more")');
    expect(answer.status).toBe(200);
    expect(namesOf(answer.json)).toEqual(byName);
  });

  it("applies the same reading to backups and registries", async () => {
    const backups = await filtered(`/kaas/${kaasId}/backups`, 'metadata.tags:eq("b:two")');
    expect(namesOf(backups.json)).toEqual(reading === "ignored" ? ["one", "two"] : ["two"]);
    const registries = await filtered("/registries", 'metadata.name:eq("r1")');
    expect(namesOf(registries.json)).toEqual(reading === "ignored" ? ["r1", "r2"] : ["r1"]);
  });
});

describe("ignored", () => {
  it("still sorts and pages, and accepts a filter it would otherwise refuse as malformed", async () => {
    emu.updateConfig({ wire: { filters: "ignored" } });
    const answer = await filtered("/kaas", "metadata.name:eq(unquoted)", "&sort=-metadata.name&limit=2");
    expect(answer.status).toBe(200);
    expect(answer.json.total).toBe(3);
    expect(namesOf(answer.json)).toEqual(["only", "none"]);
    // The links keep the (ignored) filter, like every other parameter.
    const next = new URLSearchParams({
      filter: "metadata.name:eq(unquoted)",
      sort: "-metadata.name",
      limit: "2",
      offset: "2",
    });
    expect(answer.json.next).toBe(`${h.api}/kaas?${next.toString()}`);
  });
});

describe("refused", () => {
  beforeEach(() => {
    emu.updateConfig({ wire: { filters: "refused" } });
  });

  it.each([
    ["/kaas", () => "/kaas"],
    ["/kaas/{id}/backups", () => `/kaas/${kaasId}/backups`],
    ["/registries", () => "/registries"],
  ])("answers GET %s with a filter by a 400 problem naming filter", async (_route, path) => {
    const answer = await filtered(path(), 'metadata.name:eq("more")');
    expect(answer.status).toBe(400);
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const [entry] = emu.requests().slice(-1);
    expect(entry).toMatchObject({
      method: "GET",
      path: `/projects/p-test/providers/Vendor.Container${path()}`,
    });
    expect(answer.json).toEqual({
      type: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
      title: "Invalid query parameter.",
      status: 400,
      detail: "filter: is not supported",
      instance: `/projects/p-test/providers/Vendor.Container${path()}`,
      errors: [{ fieldName: "filter", errorMessage: "is not supported" }],
      traceId: traceIdOf(entry.seq),
    });
  });

  it("lists without a filter as usual", async () => {
    const answer = await raw(`${h.api}/kaas?sort=metadata.name`);
    expect(answer.status).toBe(200);
    expect(namesOf(answer.json)).toEqual(["more", "none", "only"]);
  });
});

describe("switching at run time", () => {
  it("reads the reading on every request: PUT /_emulator/config and updateConfig take effect at once", async () => {
    const byTag = async () => {
      const answer = await filtered("/kaas", 'metadata.tags:eq("env:prod")');
      return answer.status === 200 ? namesOf(answer.json) : answer.status;
    };
    expect(await byTag()).toEqual(["only", "more"]);
    const put = await raw(`${h.url}/_emulator/config`, {
      method: "PUT",
      body: { wire: { filters: "refused" } },
      token: null,
    });
    expect(put.status).toBe(200);
    expect(put.json.wire).toEqual({ ...emu.getConfig().wire, filters: "refused" });
    expect(await byTag()).toBe(400);
    emu.updateConfig({ wire: { filters: "whole" } });
    expect(await byTag()).toEqual(["only"]);
    emu.updateConfig({ wire: { filters: "ignored" } });
    expect(await byTag()).toEqual(["only", "more", "none"]);
    emu.updateConfig({ wire: { filters: "membership" } });
    expect(await byTag()).toEqual(["only", "more"]);
  });

  it("refuses an unknown reading and keeps the current one", async () => {
    const put = await raw(`${h.url}/_emulator/config`, {
      method: "PUT",
      body: { wire: { filters: "fuzzy" } },
      token: null,
    });
    expect(put.status).toBe(400);
    expect(put.json.errors).toEqual([
      { fieldName: "wire.filters", errorMessage: "must be one of membership, whole, ignored, refused" },
    ]);
    expect(emu.getConfig().wire.filters).toBe("membership");
  });
});

describe("start-up settings", () => {
  it.each<[string, string[], Reading]>([
    ["--wire filters=whole", ["--wire", "filters=whole"], "whole"],
    ["--wire filters=ignored", ["--wire", "filters=ignored"], "ignored"],
    ["--strict", ["--strict"], "refused"],
  ])("%s starts an emulator with filters %s", async (_flags, argv, reading) => {
    const options = parseArgs(["--token", TOKEN, ...argv]);
    if (options === "help") throw new Error("unexpected --help");
    const other = await startHarness({ durations: DEFAULT_DURATIONS, ...options, port: 0 });
    try {
      expect(other.emulator.getConfig().wire.filters).toBe(reading);
      await raw(`${other.api}/kaas`, { method: "POST", body: kaasBody("only", {}, ["env:prod", "x"]) });
      const answer = await raw(
        `${other.api}/kaas?filter=${encodeURIComponent('metadata.tags:eq("env:prod")')}`,
      );
      const expected: Record<string, [number, number | undefined]> = {
        whole: [200, 0],
        ignored: [200, 1],
        refused: [400, undefined],
      };
      expect([answer.status, answer.json.total]).toEqual(expected[reading]);
    } finally {
      await other.close();
    }
  });
});
