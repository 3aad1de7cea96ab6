/**
 * The emulator's list queries under each reading of `wire.filters` (api-notes "What the published interface
 * does not show": what `eq` does on an array field, and how an unsupported filter is answered, are not said).
 */
import type { WireReadings } from "../../emulator";
import { listEnvelope, matchesAll, parseFilter, parseListParams } from "../../emulator/base/filter";
import { ApiProblem } from "../../emulator/base/problems";
import { queryOptions } from "../../emulator/base/query";

type Reading = WireReadings["filters"];

const OBJECTS = [
  { metadata: { name: "a", tags: ["x"] }, properties: { pools: [{ name: "p", zones: ["z1"] }] } },
  { metadata: { name: "b", tags: ["x", "y"] }, properties: { pools: [{ name: "q", zones: ["z1", "z2"] }] } },
  { metadata: { name: "c", tags: [] }, properties: { pools: [] } },
  { metadata: { name: "d", tags: ["y"] }, properties: { pools: [{ name: "p", zones: ["z2"] }] } },
];

const page = (offset: number, limit: number) => `/list?offset=${offset}&limit=${limit}`;

/** The list options of `query`, read as the dispatch reads a list's query. */
const options = (query: string) => queryOptions("listKaas", new URLSearchParams(query));

/** Names of the objects listed for `query` under `reading`. */
function listed(query: string, reading: Reading): string[] {
  const params = parseListParams(options(query), reading);
  return listEnvelope(OBJECTS, params, page).values.map((v) => v.metadata!.name);
}

const filter = (text: string) => `filter=${encodeURIComponent(text)}`;

describe("membership (the default reading)", () => {
  it.each([
    ['metadata.tags:eq("x")', ["a", "b"]],
    ['metadata.tags:ne("x")', ["c", "d"]],
    ['metadata.tags:in("y")', ["b", "d"]],
    ['metadata.tags:nin("y")', ["a", "c"]],
    ['properties.pools.zones:eq("z1")', ["a", "b"]],
    ['metadata.name:eq("c")', ["c"]],
    ["metadata.tags:eq(null)", ["c"]],
  ])("%s lists %j", (text, names) => {
    expect(listed(filter(text), "membership")).toEqual(names);
  });
});

describe("whole", () => {
  it.each([
    // Only tags that are exactly ["x"]: b also has "x" but not only.
    ['metadata.tags:eq("x")', ["a"]],
    ['metadata.tags:ne("x")', ["b", "c", "d"]],
    ['metadata.tags:in("y","x")', ["a", "d"]],
    ['metadata.tags:nin("y")', ["a", "b", "c"]],
    // An array on the way is still walked; the array at the end is compared whole.
    ['properties.pools.zones:eq("z1")', ["a"]],
    ['properties.pools.name:eq("p")', ["a", "d"]],
    // Scalars compare as under membership.
    ['metadata.name:eq("c")', ["c"]],
    ['metadata.name:in("a","d")', ["a", "d"]],
    // An empty array is a value, not an absent one.
    ["metadata.tags:eq(null)", []],
    // The ordering operators and exists are not equality: unchanged.
    ['metadata.tags:gt("x")', ["b", "d"]],
    ["metadata.tags:exists()", ["a", "b", "d"]],
  ])("%s lists %j", (text, names) => {
    expect(listed(filter(text), "whole")).toEqual(names);
  });

  it("matchesAll compares a final array whole only when asked", () => {
    const [criterion] = parseFilter('metadata.tags:eq("x")');
    expect(OBJECTS.map((o) => matchesAll(o, [criterion]))).toEqual([true, true, false, false]);
    expect(OBJECTS.map((o) => matchesAll(o, [criterion], "whole"))).toEqual([true, false, false, false]);
  });
});

describe("ignored", () => {
  it("lists every object whatever the filter, still sorted and paged", () => {
    const query = `${filter('metadata.tags:eq("x")')}&sort=-metadata.name&offset=1&limit=2`;
    const params = parseListParams(options(query), "ignored");
    expect(params.criteria).toEqual([]);
    const envelope = listEnvelope(OBJECTS, params, page);
    expect(envelope).toMatchObject({ total: 4, next: page(3, 2), prev: page(0, 2) });
    expect(envelope.values.map((v) => v.metadata!.name)).toEqual(["c", "b"]);
  });

  it("does not even parse the filter: a malformed one is no error", () => {
    expect(listed(filter("metadata.name:eq(unquoted"), "ignored")).toEqual(["a", "b", "c", "d"]);
  });
});

describe("refused", () => {
  function problemOf(query: string): ApiProblem {
    try {
      parseListParams(options(query), "refused");
    } catch (error) {
      if (error instanceof ApiProblem) return error;
      throw error;
    }
    throw new Error(`no problem for ${query}`);
  }

  it.each([
    ["a valid filter", filter('metadata.name:eq("a")')],
    ["an empty filter", "filter="],
    ["a malformed filter", filter("metadata.name")],
  ])("answers %s with a 400 invalidQuery naming filter", (_what, query) => {
    const problem = problemOf(query);
    expect(problem.code).toBe("invalidQuery");
    expect(problem.status).toBe(400);
    expect(problem.title).toBe("Invalid query parameter.");
    expect(problem.detail).toBe("filter: is not supported");
    expect(problem.errors).toEqual([{ fieldName: "filter", errorMessage: "is not supported" }]);
  });

  it("reports the refused filter with the other bad parameters at once", () => {
    const problem = problemOf(`${filter('metadata.name:eq("a")')}&limit=0`);
    expect(problem.errors).toEqual([
      { fieldName: "filter", errorMessage: "is not supported" },
      { fieldName: "limit", errorMessage: "must be an integer between 1 and 100" },
    ]);
  });

  it("lists as usual without a filter", () => {
    expect(listed("sort=metadata.name&limit=3", "refused")).toEqual(["a", "b", "c"]);
  });
});
