/**
 * The endpoint table (`schemas/endpoints.ts`) is the one list of the API's endpoints: the emulator serves
 * every endpoint of it, and each public method of the REST client sends the request its table entry
 * describes, on a path the emulator routes to that same endpoint with the same (decoded) parameters.
 *
 * The expected request lines are written out here, not computed from the table, so that a wrong method or
 * path in the table fails these tests; they are in turn checked against the record of the published
 * interface (schemas/published/interface.json).
 */
import { StaticTokenSource } from "../../rest/auth";
import { VendorContainerClient, type ListQueryOf } from "../../rest/client";
import type { HttpResult, RequestSpec } from "../../rest/http";
import { resolveSettings } from "../../rest/settings";
import { ENDPOINTS, ENDPOINT_NAMES, expandPath, type EndpointName } from "../../schemas/endpoints";
import { API_ROUTES, matchRoute } from "../../emulator/transport/routes";
import { loadPublishedRecord } from "./support/published-interface";
import { volumeAction } from "../../schemas/volumeAction";

/**
 * Every endpoint's request line as the published interface spells it, in table order (which is the
 * emulator's route order and so the order of a 405's `Allow` header).
 */
const WIRE: [EndpointName, string][] = [
  ["createKaas", "POST /projects/{projectId}/providers/Vendor.Container/kaas"],
  ["listKaas", "GET /projects/{projectId}/providers/Vendor.Container/kaas"],
  ["getKaas", "GET /projects/{projectId}/providers/Vendor.Container/kaas/{id}"],
  ["updateKaas", "PUT /projects/{projectId}/providers/Vendor.Container/kaas/{id}"],
  ["deleteKaas", "DELETE /projects/{projectId}/providers/Vendor.Container/kaas/{id}"],
  ["downloadKubeconfig", "GET /projects/{projectId}/providers/Vendor.Container/kaas/{id}/download"],
  ["detachVolumeFromCluster", "POST /projects/{projectId}/providers/Vendor.Container/kaas/{id}/detach"],
  [
    "updateNodePool",
    "PUT /projects/{projectId}/providers/Vendor.Container/kaas/{id}/nodePools/{nodePoolName}",
  ],
  [
    "attachVolume",
    "POST /projects/{projectId}/providers/Vendor.Container/kaas/{id}/nodePools/{nodePoolId}/nodes/{nodeId}/attach",
  ],
  [
    "detachVolumeFromNode",
    "POST /projects/{projectId}/providers/Vendor.Container/kaas/{id}/nodePools/{nodePoolId}/nodes/{nodeId}/detach",
  ],
  ["createBackup", "POST /projects/{projectId}/providers/Vendor.Container/kaas/{kaasId}/backups"],
  ["listBackups", "GET /projects/{projectId}/providers/Vendor.Container/kaas/{kaasId}/backups"],
  ["getBackup", "GET /projects/{projectId}/providers/Vendor.Container/kaas/{kaasId}/backups/{id}"],
  ["updateBackup", "PUT /projects/{projectId}/providers/Vendor.Container/kaas/{kaasId}/backups/{id}"],
  ["deleteBackup", "DELETE /projects/{projectId}/providers/Vendor.Container/kaas/{kaasId}/backups/{id}"],
  ["createRegistry", "POST /projects/{projectId}/providers/Vendor.Container/registries"],
  ["listRegistries", "GET /projects/{projectId}/providers/Vendor.Container/registries"],
  ["getRegistry", "GET /projects/{projectId}/providers/Vendor.Container/registries/{id}"],
  ["updateRegistry", "PUT /projects/{projectId}/providers/Vendor.Container/registries/{id}"],
  ["deleteRegistry", "DELETE /projects/{projectId}/providers/Vendor.Container/registries/{id}"],
  [
    "resetAdminPassword",
    "PUT /projects/{projectId}/providers/Vendor.Container/registries/{id}/resetAdminPassword",
  ],
];

/**
 * A request line with every path parameter written `{}`. Parameter names are not on the wire, and the table's
 * are not the published ones (the published record calls the pool `nodePoolName` in one path and `nodePoolId`
 * in another); which value goes in which segment is pinned by the concrete paths of `CALLS` below.
 */
const shape = (line: string) => line.replace(/\{\w+\}|:\w+/g, "{}");

/** The request line of a table pattern, below the published prefix (spec §4: `P`). */
const requestLine = (method: string, pattern: string) =>
  shape(`${method} /projects/{projectId}/providers/Vendor.Container${pattern}`);

const EXPECTED_LINES = WIRE.map(([name, line]) => [name, shape(line)]);

/** Parameter values that each need encoding in a path segment. */
const PROJECT = "proj one";
const ID = "k/1";
const KAAS_ID = "k?2";
const POOL = "pool #a";
const NODE = "node%1";
const URI = "https://storage.example/volumes/v-1";

function stubbedClient() {
  const settings = resolveSettings(() => undefined, {
    VENDOR_BASE_URL: "http://127.0.0.1:1",
    VENDOR_TOKEN: "endpoint-test-token",
  });
  const client = new VendorContainerClient(settings, {}, new StaticTokenSource("endpoint-test-token"));
  const sent: RequestSpec[] = [];
  jest.spyOn(client.http, "request").mockImplementation(async <T>(spec: RequestSpec) => {
    sent.push(spec);
    return { status: 200, data: undefined } as HttpResult<T>;
  });
  return { client, sent };
}

/**
 * Each public method of the client, the endpoint it calls, the request line it sends (with the parameter
 * values above, encoded) and the path parameters the emulator decodes from it.
 */
const CALLS: [
  EndpointName,
  (c: VendorContainerClient) => Promise<unknown>,
  string,
  Record<string, string>,
][] = [
  [
    "createKaas",
    (c) => c.call("createKaas", { projectId: PROJECT }, { properties: {} } as never),
    "POST /projects/proj%20one/providers/Vendor.Container/kaas",
    {},
  ],
  [
    "listKaas",
    (c) => c.list("listKaas", { projectId: PROJECT }),
    "GET /projects/proj%20one/providers/Vendor.Container/kaas",
    {},
  ],
  [
    "getKaas",
    (c) => c.call("getKaas", { projectId: PROJECT, id: ID }),
    "GET /projects/proj%20one/providers/Vendor.Container/kaas/k%2F1",
    { id: ID },
  ],
  [
    "updateKaas",
    (c) => c.call("updateKaas", { projectId: PROJECT, id: ID }, {} as never),
    "PUT /projects/proj%20one/providers/Vendor.Container/kaas/k%2F1",
    { id: ID },
  ],
  [
    "deleteKaas",
    (c) => c.call("deleteKaas", { projectId: PROJECT, id: ID }),
    "DELETE /projects/proj%20one/providers/Vendor.Container/kaas/k%2F1",
    { id: ID },
  ],
  [
    "downloadKubeconfig",
    (c) => c.downloadKubeconfig(PROJECT, ID),
    "GET /projects/proj%20one/providers/Vendor.Container/kaas/k%2F1/download",
    { id: ID },
  ],
  [
    "detachVolumeFromCluster",
    (c) => c.call("detachVolumeFromCluster", { projectId: PROJECT, id: ID }, volumeAction(URI)),
    "POST /projects/proj%20one/providers/Vendor.Container/kaas/k%2F1/detach",
    { id: ID },
  ],
  [
    "updateNodePool",
    (c) => c.call("updateNodePool", { projectId: PROJECT, id: ID, pool: POOL }, {} as never),
    "PUT /projects/proj%20one/providers/Vendor.Container/kaas/k%2F1/nodePools/pool%20%23a",
    { id: ID, pool: POOL },
  ],
  [
    "attachVolume",
    (c) => c.call("attachVolume", { projectId: PROJECT, id: ID, pool: POOL, node: NODE }, volumeAction(URI)),
    "POST /projects/proj%20one/providers/Vendor.Container/kaas/k%2F1/nodePools/pool%20%23a/nodes/node%251/attach",
    { id: ID, pool: POOL, node: NODE },
  ],
  [
    "detachVolumeFromNode",
    (c) =>
      c.call(
        "detachVolumeFromNode",
        { projectId: PROJECT, id: ID, pool: POOL, node: NODE },
        volumeAction(URI),
      ),
    "POST /projects/proj%20one/providers/Vendor.Container/kaas/k%2F1/nodePools/pool%20%23a/nodes/node%251/detach",
    { id: ID, pool: POOL, node: NODE },
  ],
  [
    "createBackup",
    (c) => c.call("createBackup", { projectId: PROJECT, kaasId: KAAS_ID }, {} as never),
    "POST /projects/proj%20one/providers/Vendor.Container/kaas/k%3F2/backups",
    { kaasId: KAAS_ID },
  ],
  [
    "listBackups",
    (c) => c.list("listBackups", { projectId: PROJECT, kaasId: KAAS_ID }),
    "GET /projects/proj%20one/providers/Vendor.Container/kaas/k%3F2/backups",
    { kaasId: KAAS_ID },
  ],
  [
    "getBackup",
    (c) => c.call("getBackup", { projectId: PROJECT, kaasId: KAAS_ID, id: ID }),
    "GET /projects/proj%20one/providers/Vendor.Container/kaas/k%3F2/backups/k%2F1",
    { kaasId: KAAS_ID, id: ID },
  ],
  [
    "updateBackup",
    (c) => c.call("updateBackup", { projectId: PROJECT, kaasId: KAAS_ID, id: ID }, {} as never),
    "PUT /projects/proj%20one/providers/Vendor.Container/kaas/k%3F2/backups/k%2F1",
    { kaasId: KAAS_ID, id: ID },
  ],
  [
    "deleteBackup",
    (c) => c.call("deleteBackup", { projectId: PROJECT, kaasId: KAAS_ID, id: ID }),
    "DELETE /projects/proj%20one/providers/Vendor.Container/kaas/k%3F2/backups/k%2F1",
    { kaasId: KAAS_ID, id: ID },
  ],
  [
    "createRegistry",
    (c) => c.call("createRegistry", { projectId: PROJECT }, {} as never),
    "POST /projects/proj%20one/providers/Vendor.Container/registries",
    {},
  ],
  [
    "listRegistries",
    (c) => c.list("listRegistries", { projectId: PROJECT }),
    "GET /projects/proj%20one/providers/Vendor.Container/registries",
    {},
  ],
  [
    "getRegistry",
    (c) => c.call("getRegistry", { projectId: PROJECT, id: ID }),
    "GET /projects/proj%20one/providers/Vendor.Container/registries/k%2F1",
    { id: ID },
  ],
  [
    "updateRegistry",
    (c) => c.call("updateRegistry", { projectId: PROJECT, id: ID }, {} as never),
    "PUT /projects/proj%20one/providers/Vendor.Container/registries/k%2F1",
    { id: ID },
  ],
  [
    "deleteRegistry",
    (c) => c.call("deleteRegistry", { projectId: PROJECT, id: ID }),
    "DELETE /projects/proj%20one/providers/Vendor.Container/registries/k%2F1",
    { id: ID },
  ],
  [
    "resetAdminPassword",
    (c) => c.call("resetAdminPassword", { projectId: PROJECT, id: ID }, {}),
    "PUT /projects/proj%20one/providers/Vendor.Container/registries/k%2F1/resetAdminPassword",
    { id: ID },
  ],
];

/** The creates: a create whose fate is unknown is not re-sent (rest/http.ts); any other request may be. */
const NOT_IDEMPOTENT: EndpointName[] = ["createKaas", "createBackup", "createRegistry"];

it("the table has the published method and path of every endpoint, in this order, and nothing else", () => {
  expect(
    ENDPOINT_NAMES.map((name) => [name, requestLine(ENDPOINTS[name].method, ENDPOINTS[name].path)]),
  ).toEqual(EXPECTED_LINES);
});

it("the request lines written here are the published record's operations, all of them", () => {
  const paths = loadPublishedRecord().paths as Record<string, Record<string, unknown>>;
  const published = Object.entries(paths).flatMap(([route, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${route}`),
  );
  expect(published.sort()).toEqual(WIRE.map(([, line]) => line).sort());
});

it("the emulator serves every endpoint on its published method and path, in this order, and nothing else", () => {
  expect(API_ROUTES.map((r) => [r.endpoint, requestLine(r.method, r.pattern)])).toEqual(EXPECTED_LINES);
  expect(API_ROUTES.every((r) => typeof r.handler === "function")).toBe(true);
});

it("the client calls cover every endpoint once", () => {
  expect(CALLS.map(([name]) => name)).toEqual(WIRE.map(([name]) => name));
});

it.each(CALLS)(
  "%s sends its request line and table entry, on a path the emulator routes to it",
  async (name, call, line, params) => {
    const { client, sent } = stubbedClient();
    await call(client);
    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect(`${request.method} ${client.http.fullPath(request.projectId, request.path)}`).toBe(line);
    expect(request.idempotent).toBe(!NOT_IDEMPOTENT.includes(name));
    expect(request.responseType).toBe(name === "downloadKubeconfig" ? "text" : undefined);
    // The client hands the names of the table's schemas to the HTTP layer, which validates by them.
    const endpoint = ENDPOINTS[name];
    expect(request.bodySchema).toBe("body" in endpoint ? endpoint.body : undefined);
    expect(request.responseSchema).toBe("response" in endpoint ? endpoint.response : undefined);

    expect(matchRoute(API_ROUTES, request.method, request.path)).toEqual({
      kind: "found",
      route: expect.objectContaining({ endpoint: name }),
      params,
    });
  },
);

it("a list takes the query of its table entry: the registry list's has loadEngineVersion, the others' do not", async () => {
  const registries: ListQueryOf<"listRegistries"> = { filter: "name:eq(r)", loadEngineVersion: true };
  // @ts-expect-error the cluster list's query is the plain list query
  const clusters: ListQueryOf<"listKaas"> = { filter: "name:eq(k)", loadEngineVersion: true };
  // @ts-expect-error the backup list's query is the plain list query
  const backups: ListQueryOf<"listBackups"> = { filter: "name:eq(b)", loadEngineVersion: true };
  const { client, sent } = stubbedClient();
  await client.list("listRegistries", { projectId: PROJECT }, registries);
  await client.list("listKaas", { projectId: PROJECT }, clusters);
  await client.list("listBackups", { projectId: PROJECT, kaasId: KAAS_ID }, backups);
  expect(sent.map((request) => request.query)).toEqual([registries, clusters, backups]);
});

it("volume actions send {volume: {uri}}", async () => {
  const { client, sent } = stubbedClient();
  await client.call(
    "attachVolume",
    { projectId: PROJECT, id: ID, pool: POOL, node: NODE },
    volumeAction(URI),
  );
  expect(sent[0].body).toEqual({ volume: { uri: URI } });
});

it("path parameters are encoded with encodeURIComponent", () => {
  expect(expandPath("/kaas/:id/nodePools/:pool/nodes/:node/attach", { id: ID, pool: POOL, node: NODE })).toBe(
    "/kaas/k%2F1/nodePools/pool%20%23a/nodes/node%251/attach",
  );
  expect(expandPath("/kaas/:kaasId/backups", { kaasId: KAAS_ID })).toBe("/kaas/k%3F2/backups");
});

it("a missing path parameter is an error naming it", () => {
  expect(() => expandPath("/kaas/:id/nodePools/:pool", { id: ID })).toThrow(
    "path /kaas/:id/nodePools/:pool needs the parameter pool",
  );
});
