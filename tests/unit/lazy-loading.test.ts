/**
 * What a `pulumi preview` loads: a program that declares resources and a provider process that
 * checks and diffs them call no service, so neither loads the REST client with its wire schemas and ajv.
 * The first client made, by a function or a create, loads it.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { KUBECONFIG, baselineInputs, checked, responseFor, stateOf } from "./support/kaas-fixtures";
import { LOADED_MODULES } from "./support/loaded-modules";
import { json, startScriptedServer, type ScriptedServer } from "./support/scripted-server";

const execFileAsync = promisify(execFile);
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

describe("the built package (`npm test` builds first; run alone, this needs `npm run build`)", () => {
  let server: ScriptedServer;
  afterEach(() => server?.close());

  it("a refresh's read of a cluster loads no TypeBox, no wire schema and no ajv compiler", async () => {
    const inputs = checked(baselineInputs());
    const answer = responseFor(inputs, { id: "kaas-1" });
    server = await startScriptedServer((request) =>
      request.url.includes("/download")
        ? json(200, { name: "kubeconfig", content: Buffer.from(KUBECONFIG).toString("base64") })
        : json(200, answer),
    );
    // The provider's `read`, in a process of its own that loads the built package as the engine's
    // dynamic-provider process does, then what that process holds of TypeBox, ajv and the schemas.
    const script = `
      const { configure, provider } = require("./dist/provider");
      const settings = { "vendor:baseUrl": process.env.BASE_URL, "vendor:token": "t" };
      configure({ get: (key) => settings[key] });
      ${LOADED_MODULES}
      provider("Kaas").read("kaas-1", JSON.parse(process.env.STATE)).then((read) => console.log(JSON.stringify({
        id: read.id,
        version: read.props.currentKubernetesVersion,
        typebox: loaded(/node_modules\\/@sinclair\\//),
        ajv: loaded(/node_modules\\/ajv\\//),
        schemas: loaded(/\\/dist\\/schemas\\//),
      })));
    `;
    const { stdout } = await execFileAsync(process.execPath, ["-e", script], {
      cwd: path.resolve(__dirname, "../.."),
      env: { ...process.env, BASE_URL: server.url, STATE: JSON.stringify(stateOf(inputs, answer)) },
    });
    expect(JSON.parse(stdout)).toEqual({
      id: "kaas-1",
      version: "1.33.2",
      typebox: [],
      ajv: ["ajv/dist/runtime/ucs2length.js"],
      schemas: [
        "dist/schemas/endpoints.js",
        // The loader of the generated validators (each required only when first needed).
        "dist/schemas/generated.js",
        "dist/schemas/projection.js",
        "dist/schemas/typed.js",
        "dist/schemas/validate.js",
        // The Kubernetes version rule the cluster's outputs compare with: plain code, no schema.
        "dist/schemas/versions.js",
        "dist/schemas/volumeAction.js",
      ],
    });
    expect(server.requests.map((r) => `${r.method} ${r.url.replace(/\?.*/, "")}`)).toEqual([
      "GET /projects/proj-1/providers/Vendor.Container/kaas/kaas-1",
      "GET /projects/proj-1/providers/Vendor.Container/kaas/kaas-1/download",
    ]);
  });
});
