/**
 * What a `pulumi preview` loads (issue 12): a program that declares resources and a provider process that
 * checks and diffs them call no service, so neither loads the REST client with its wire schemas and ajv.
 * The first client made, by a function or a create, loads it.
 */
const mockLoaded = new Set<string>();

jest.mock("../../rest/client", () => {
  mockLoaded.add("rest/client");
  return jest.requireActual("../../rest/client");
});
jest.mock("ajv", () => {
  mockLoaded.add("ajv");
  return jest.requireActual("ajv");
});
jest.mock("@sinclair/typebox", () => {
  mockLoaded.add("@sinclair/typebox");
  return jest.requireActual("@sinclair/typebox");
});

const clusterArgs = {
  name: "prod",
  location: "ITBG-Bergamo",
  kubernetesVersion: "1.33.2",
  nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
  nodePools: [{ name: "default", nodes: 3, instance: "K4A8", dataCenter: "ITBG-1" }],
  creationScope: "proj/dev/prod",
};

beforeEach(() => {
  jest.resetModules();
  mockLoaded.clear();
});

it("importing the SDK loads no REST client, schema or validator", async () => {
  const sdk = await import("../../sdk");
  expect(typeof sdk.Kaas).toBe("function");
  expect(typeof sdk.getKaas).toBe("function");
  expect([...mockLoaded]).toEqual([]);
});

it("check and diff of a cluster load no REST client, schema or HTTP library", async () => {
  const { configure, provider } = await import("../../provider");
  configure({ get: (key) => ({ "vendor:projectId": "p-1" })[key] });
  const kaas = provider("Kaas");
  const { inputs, failures } = await kaas.check({}, clusterArgs);
  expect(failures).toEqual([]);
  expect(await kaas.diff("k-1", inputs, inputs)).toEqual({
    changes: false,
    replaces: [],
    deleteBeforeReplace: false,
  });
  expect([...mockLoaded]).toEqual([]);
});

it("the first client the provider makes loads the REST client", async () => {
  const { configure } = await import("../../provider");
  const { client } = await import("../../provider/common/context");
  configure({ get: (key) => ({ "vendor:baseUrl": "http://127.0.0.1:1", "vendor:token": "t" })[key] });
  expect(mockLoaded.has("rest/client")).toBe(false);
  expect(client().constructor.name).toBe("VendorContainerClient");
  expect(mockLoaded.has("rest/client")).toBe(true);
});
