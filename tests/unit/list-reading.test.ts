/**
 * How the client reads lists: the deep-partial schema of projected items, the one
 * wording of a skipped item, paging that counts skipped items, and a page whose envelope is wrong still
 * failing as a whole.
 */
import { StaticTokenSource } from "../../rest/auth";
import { VendorContainerClient } from "../../rest/client";
import { collect, paginate, unreadableItemLine, type ReadPage } from "../../rest/paginate";
import { resolveSettings } from "../../rest/settings";
import { KaasList, KaasResponse, WIRE_SCHEMAS, validateSchema } from "../../schemas";
import { ENDPOINTS } from "../../schemas/endpoints";
import { deepPartial, projectedListOf } from "../../schemas/projection";
import { json, startScriptedServer, type ScriptedServer } from "./support/scripted-server";

describe("the deep-partial schema of a projected item", () => {
  const projected = projectedListOf("KaasResponse");

  it("accepts an item with any field left out, at any depth", () => {
    expect(
      validateSchema(projected, {
        values: [{}, { status: {} }, { metadata: {}, properties: { nodePools: [{}] } }],
      }),
    ).toEqual([]);
  });

  it("still checks the type of a field that is present", () => {
    expect(
      validateSchema(projected, {
        values: [
          { status: { state: 7 } },
          { metadata: { id: "" } },
          { properties: { nodePools: [{ name: null }] } },
        ],
      }),
    ).toEqual([
      { path: "/values/0/status/state", message: "must be string" },
      { path: "/values/1/metadata/id", message: "must NOT have fewer than 1 characters" },
      { path: "/values/2/properties/nodePools/0/name", message: "must be string" },
    ]);
  });

  it("still checks the envelope", () => {
    expect(validateSchema(projected, { total: "3" })).toEqual([
      { path: "/values", message: "is required" },
      { path: "/total", message: "must be integer" },
    ]);
  });

  it("is made once per item schema, so its validator is compiled once per process", () => {
    expect(projectedListOf("KaasResponse")).toBe(projected);
    expect(projectedListOf("BackupResponse")).toBe(projectedListOf("BackupResponse"));
    expect(projectedListOf("RegistryResponse")).not.toBe(projectedListOf("BackupResponse"));
  });

  it("leaves the item schema itself, and the list of whole items, untouched", () => {
    const before = JSON.stringify(KaasResponse);
    deepPartial(KaasResponse);
    expect(JSON.stringify(KaasResponse)).toBe(before);
    expect(ENDPOINTS.listKaas.response).toBe("KaasList");
    expect(WIRE_SCHEMAS.KaasList).toBe(KaasList);
    expect(validateSchema(KaasList, { values: [{}] })).toEqual([
      { path: "/values/0/metadata", message: "is required" },
      { path: "/values/0/properties", message: "is required" },
    ]);
  });
});

describe("the line of a skipped item", () => {
  it("names the request, the offset, the id when there is one, and every problem", () => {
    expect(
      unreadableItemLine("GET /kaas", {
        offset: 41,
        id: "kaas-0042",
        problems: [
          { path: "/metadata/tags", message: "must be array" },
          { path: "/properties/nodePools/0/name", message: "must be string" },
        ],
      }),
    ).toBe(
      "GET /kaas: skipped item kaas-0042 at offset 41, which the client cannot read: " +
        "/metadata/tags: must be array; /properties/nodePools/0/name: must be string",
    );
    expect(
      unreadableItemLine("GET /registries", {
        offset: 0,
        problems: [{ path: "/metadata/id", message: "must be string" }],
      }),
    ).toBe(
      "GET /registries: skipped the item at offset 0, which the client cannot read: /metadata/id: must be string",
    );
  });
});

describe("paging with skipped items", () => {
  const skipped = (offset: number) => ({
    offset,
    problems: [{ path: "/metadata/id", message: "must be string" }],
  });

  it("counts a skipped item as an item of its page, and reports it before the page's items", async () => {
    const pages: Record<number, ReadPage<string>> = {
      0: { values: ["a"], unreadable: [skipped(1)] },
      2: { values: [], unreadable: [skipped(2), skipped(3)] },
      4: { values: ["e"], unreadable: [] },
    };
    const asked: number[] = [];
    const lines: string[] = [];
    const items = await collect(
      paginate(
        async (offset) => {
          asked.push(offset);
          return pages[offset];
        },
        2,
        (line) => lines.push(line),
        (item) => `skipped ${item.offset}`,
      ),
    );

    expect(items).toEqual(["a", "e"]);
    expect(asked).toEqual([0, 2, 4]);
    expect(lines).toEqual(["skipped 1", "skipped 2", "skipped 3"]);
  });

  it("writes to standard error, with the package's prefix, when nobody gave a sink", async () => {
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      await collect(paginate(async () => ({ values: [], unreadable: [skipped(0)] }), 2, undefined));
      expect(warn.mock.calls).toEqual([
        [
          "[vendor-container] list: skipped the item at offset 0, which the client cannot read: /metadata/id: must be string",
        ],
      ]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe("a list page through the choke point", () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  function clientOf(url: string): VendorContainerClient {
    const settings = resolveSettings(() => undefined, { VENDOR_BASE_URL: url, VENDOR_TOKEN: "list-token" });
    return new VendorContainerClient(settings, {}, new StaticTokenSource("list-token"));
  }

  const cluster = (id: unknown) => ({ metadata: { id }, properties: {} });

  it("fails as a whole when the envelope is wrong, naming every problem", async () => {
    server = await startScriptedServer([json(200, { total: "2", values: [cluster(null), cluster("k-2")] })]);

    await expect(clientOf(server.url).list("listKaas", { projectId: "p-1" })).rejects.toThrow(
      "GET /kaas answered (200): unexpected response body: /total: must be integer; /values/0/metadata/id: must be string",
    );
  });

  it("answers the readable items and the unreadable ones apart when only items are wrong", async () => {
    server = await startScriptedServer([json(200, { total: 3, values: [cluster("k-1"), cluster(5), {}] })]);

    const page = await clientOf(server.url).list("listKaas", { projectId: "p-1" }, { offset: 10 });

    expect(page).toEqual({
      total: 3,
      values: [cluster("k-1")],
      unreadable: [
        { offset: 11, problems: [{ path: "/metadata/id", message: "must be string" }] },
        {
          offset: 12,
          problems: [
            { path: "/metadata", message: "is required" },
            { path: "/properties", message: "is required" },
          ],
        },
      ],
    });
  });

  it("sends the projection as is and checks the answer as projected", async () => {
    server = await startScriptedServer([json(200, { values: [{ status: { state: "Active" } }] })]);

    const page = await clientOf(server.url).list("listKaas", { projectId: "p-1" }, { projection: "status" });

    expect(page.values).toEqual([{ status: { state: "Active" } }]);
    expect(server.requests[0].url).toContain("projection=status");
  });
});
