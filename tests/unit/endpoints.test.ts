/**
 * The endpoint table (`schemas/endpoints.ts`) is the one list of the API's endpoints: the emulator serves
 * every endpoint of it, and each public method of the REST client sends the request its table entry
 * describes, on a path the emulator routes to that same endpoint with the same (decoded) parameters.
 */
import { StaticTokenSource } from "../../rest/auth";
import { VendorContainerClient } from "../../rest/client";
import type { HttpResult, RequestSpec } from "../../rest/http";
import { resolveSettings } from "../../rest/settings";
import { ENDPOINTS, ENDPOINT_NAMES, expandPath, type EndpointName } from "../../schemas/endpoints";
import { API_ROUTES, matchRoute } from "../../emulator/routes";

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

/** Each public method of the client, the endpoint it calls and the path parameters it passes. */
const CALLS: [EndpointName, (c: VendorContainerClient) => Promise<unknown>, Record<string, string>][] = [
  ["createKaas", (c) => c.createKaas(PROJECT, { properties: {} } as never), {}],
  ["listKaas", (c) => c.listKaas(PROJECT), {}],
  ["getKaas", (c) => c.getKaas(PROJECT, ID), { id: ID }],
  ["updateKaas", (c) => c.updateKaas(PROJECT, ID, {} as never), { id: ID }],
  ["deleteKaas", (c) => c.deleteKaas(PROJECT, ID), { id: ID }],
  ["downloadKubeconfig", (c) => c.downloadKubeconfig(PROJECT, ID), { id: ID }],
  ["detachVolumeFromCluster", (c) => c.detachVolumeFromCluster(PROJECT, ID, URI), { id: ID }],
  ["updateNodePool", (c) => c.updateNodePool(PROJECT, ID, POOL, {} as never), { id: ID, pool: POOL }],
  ["attachVolume", (c) => c.attachVolume(PROJECT, ID, POOL, NODE, URI), { id: ID, pool: POOL, node: NODE }],
  [
    "detachVolumeFromNode",
    (c) => c.detachVolumeFromNode(PROJECT, ID, POOL, NODE, URI),
    { id: ID, pool: POOL, node: NODE },
  ],
  ["createBackup", (c) => c.createBackup(PROJECT, KAAS_ID, {} as never), { kaasId: KAAS_ID }],
  ["listBackups", (c) => c.listBackups(PROJECT, KAAS_ID), { kaasId: KAAS_ID }],
  ["getBackup", (c) => c.getBackup(PROJECT, KAAS_ID, ID), { kaasId: KAAS_ID, id: ID }],
  ["updateBackup", (c) => c.updateBackup(PROJECT, KAAS_ID, ID, {} as never), { kaasId: KAAS_ID, id: ID }],
  ["deleteBackup", (c) => c.deleteBackup(PROJECT, KAAS_ID, ID), { kaasId: KAAS_ID, id: ID }],
  ["createRegistry", (c) => c.createRegistry(PROJECT, {} as never), {}],
  ["listRegistries", (c) => c.listRegistries(PROJECT), {}],
  ["getRegistry", (c) => c.getRegistry(PROJECT, ID), { id: ID }],
  ["updateRegistry", (c) => c.updateRegistry(PROJECT, ID, {} as never), { id: ID }],
  ["deleteRegistry", (c) => c.deleteRegistry(PROJECT, ID), { id: ID }],
  ["resetAdminPassword", (c) => c.resetAdminPassword(PROJECT, ID), { id: ID }],
];

it("the emulator serves every endpoint of the table, in table order, and nothing else", () => {
  expect(API_ROUTES.map((r) => [r.endpoint, r.method, r.pattern])).toEqual(
    ENDPOINT_NAMES.map((name) => [name, ENDPOINTS[name].method, ENDPOINTS[name].path]),
  );
  expect(API_ROUTES.every((r) => typeof r.handler === "function")).toBe(true);
  expect(ENDPOINT_NAMES).toHaveLength(21);
});

it("the client calls cover every endpoint of the table once", () => {
  expect(CALLS.map(([name]) => name)).toEqual(ENDPOINT_NAMES);
});

it.each(CALLS)("%s sends its table entry on a path the emulator routes to it", async (name, call, params) => {
  const { client, sent } = stubbedClient();
  await call(client);
  const endpoint = ENDPOINTS[name];
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({
    method: endpoint.method,
    projectId: PROJECT,
    path: expandPath(endpoint.path, params),
    idempotent: endpoint.idempotent,
  });
  expect(sent[0].bodySchema).toBe("body" in endpoint ? endpoint.body : undefined);
  expect(sent[0].responseSchema).toBe("response" in endpoint ? endpoint.response : undefined);
  expect(sent[0].responseType).toBe(endpoint.responseType === "text" ? "text" : undefined);

  const match = matchRoute(API_ROUTES, sent[0].method, sent[0].path);
  expect(match).toEqual({ kind: "found", route: API_ROUTES[ENDPOINT_NAMES.indexOf(name)], params });
});

it("volume actions send {volume: {uri}}", async () => {
  const { client, sent } = stubbedClient();
  await client.attachVolume(PROJECT, ID, POOL, NODE, URI);
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
