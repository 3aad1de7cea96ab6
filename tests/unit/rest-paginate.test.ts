/** Paging through list endpoints by offset and limit (spec §2.9, §4.4). */
import type { ListPage } from "../../schemas/common";
import { collect, paginate } from "../../rest/paginate";

/** A fetcher answering `pages` in turn and recording the `[offset, limit]` of each request. */
function pager(pages: ListPage<string>[]) {
  const calls: [number, number][] = [];
  const fetchPage = async (offset: number, limit: number) => {
    calls.push([offset, limit]);
    const page = pages[calls.length - 1];
    if (!page) throw new Error(`unexpected request #${calls.length} at offset ${offset}`);
    return page;
  };
  return { calls, fetchPage };
}

describe("paginate", () => {
  it("stops on an empty page when the service gives neither next nor total", async () => {
    const { calls, fetchPage } = pager([{ values: ["a", "b"] }, { values: ["c", "d"] }, { values: [] }]);

    expect(await collect(paginate(fetchPage, 2))).toEqual(["a", "b", "c", "d"]);
    expect(calls).toEqual([
      [0, 2],
      [2, 2],
      [4, 2],
    ]);
  });

  it("stops on an empty page even when next says there is more", async () => {
    const { calls, fetchPage } = pager([{ values: [], next: "/kaas?offset=2", total: 10 }]);

    expect(await collect(paginate(fetchPage, 2))).toEqual([]);
    expect(calls).toEqual([[0, 2]]);
  });

  it.each([
    ["empty", ""],
    ["null", null],
  ])("stops on a full page whose next is %s", async (_case, next) => {
    const { calls, fetchPage } = pager([{ values: ["a", "b"], next, total: 10 }]);

    expect(await collect(paginate(fetchPage, 2))).toEqual(["a", "b"]);
    expect(calls).toEqual([[0, 2]]);
  });

  it("follows a non-empty next past a short page, advancing the offset by the items received", async () => {
    const { calls, fetchPage } = pager([
      { values: ["a"], next: "/kaas?offset=1&limit=3" },
      { values: ["b", "c"], next: "/kaas?offset=3&limit=3" },
      { values: ["d"], next: null },
    ]);

    expect(await collect(paginate(fetchPage, 3))).toEqual(["a", "b", "c", "d"]);
    expect(calls).toEqual([
      [0, 3],
      [1, 3],
      [3, 3],
    ]);
  });

  it("stops when total is reached, without fetching an empty page", async () => {
    const { calls, fetchPage } = pager([
      { values: ["a", "b"], total: 4 },
      { values: ["c", "d"], total: 4 },
    ]);

    expect(await collect(paginate(fetchPage, 2))).toEqual(["a", "b", "c", "d"]);
    expect(calls).toEqual([
      [0, 2],
      [2, 2],
    ]);
  });

  it("reads totalCount when total is absent or null", async () => {
    const { calls, fetchPage } = pager([
      { values: ["a", "b"], totalCount: 3 },
      { values: ["c"], total: null, totalCount: 3 },
    ]);

    expect(await collect(paginate(fetchPage, 2))).toEqual(["a", "b", "c"]);
    expect(calls).toEqual([
      [0, 2],
      [2, 2],
    ]);
  });

  it("keeps paging past short pages until total is reached: the service may cap the page size", async () => {
    const { calls, fetchPage } = pager([
      { values: ["a"], total: 3 },
      { values: ["b"], total: 3 },
      { values: ["c"], total: 3 },
    ]);

    expect(await collect(paginate(fetchPage, 100))).toEqual(["a", "b", "c"]);
    expect(calls).toEqual([
      [0, 100],
      [1, 100],
      [2, 100],
    ]);
  });

  it("stops when total is reached even though next is non-empty", async () => {
    const { calls, fetchPage } = pager([{ values: ["a", "b"], next: "/kaas?offset=2", total: 2 }]);

    expect(await collect(paginate(fetchPage, 2))).toEqual(["a", "b"]);
    expect(calls).toEqual([[0, 2]]);
  });

  it("ends the list on a short page when the service gives neither next nor total", async () => {
    const { calls, fetchPage } = pager([{ values: ["a", "b"] }, { values: ["c"] }]);

    expect(await collect(paginate(fetchPage, 2))).toEqual(["a", "b", "c"]);
    expect(calls).toEqual([
      [0, 2],
      [2, 2],
    ]);
  });

  it("treats a page without values as empty", async () => {
    const { calls, fetchPage } = pager([{ total: 5 } as unknown as ListPage<string>]);

    expect(await collect(paginate(fetchPage, 2))).toEqual([]);
    expect(calls).toEqual([[0, 2]]);
  });

  it("asks for 100 items per page by default", async () => {
    const { calls, fetchPage } = pager([{ values: ["a"] }]);

    expect(await collect(paginate(fetchPage))).toEqual(["a"]);
    expect(calls).toEqual([[0, 100]]);
  });

  it("fetches the next page only when the consumer asks for its items", async () => {
    const { calls, fetchPage } = pager([{ values: ["a", "b"] }, { values: ["c", "d"] }]);
    const seen: string[] = [];

    for await (const item of paginate(fetchPage, 2)) {
      seen.push(item);
      if (seen.length === 2) break;
    }

    expect(seen).toEqual(["a", "b"]);
    expect(calls).toEqual([[0, 2]]);
  });

  it("propagates an error of the fetcher", async () => {
    const fetchPage = async (): Promise<ListPage<string>> => {
      throw new Error("GET /kaas failed (500 Internal Server Error)");
    };

    await expect(collect(paginate(fetchPage, 2))).rejects.toThrow(
      "GET /kaas failed (500 Internal Server Error)",
    );
  });
});

describe("collect", () => {
  it("gathers an async iterable in order", async () => {
    async function* items() {
      yield 1;
      yield 2;
      yield 3;
    }
    expect(await collect(items())).toEqual([1, 2, 3]);
  });
});
