/**
 * One settings source and one client cache: a resource's `check` and a function read `vendor:projectId` by
 * the same rule (trimmed, blank meaning unset, stack config before environment), and the same settings give
 * the very same client in the provider and in a function.
 */
import * as pulumi from "@pulumi/pulumi";
import { client } from "../../provider/common/context";
import { HttpClient } from "../../rest/http";
import { getKaas } from "../../sdk";
import { checked, startHarness, PROJECT, type Harness } from "./support/harness";

let h: Harness;
let kaasId: string;
const CLUSTER = {
  name: "alpha",
  location: "ITBG-Bergamo",
  kubernetesVersion: "1.32.5",
  nodeCidr: { address: "10.10.0.0/16", name: "n" },
  nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
  creationScope: "proj/dev/alpha",
};
// Missing, so the engine would print `{<nil>}` for it: a failure of the whole resource that names it.
const MISSING_PROJECT_CHECK = {
  property: "",
  reason: "projectId: is required: set it, or stack config vendor:projectId, or VENDOR_PROJECT_ID",
};
const MISSING_PROJECT_FUNCTION =
  "projectId is required: pass it, or set stack config vendor:projectId or VENDOR_PROJECT_ID";

/** Gives the provider and the program the same stack configuration, as one stack does. */
function setStackConfig(key: string, value: string): void {
  h.config[key] = value;
  pulumi.runtime.setConfig(key, value);
}

beforeAll(async () => {
  h = await startHarness();
  const kaas = h.kind("Kaas");
  kaasId = (await kaas.create(await checked(kaas, {}, { ...CLUSTER, projectId: PROJECT }))).id;
  for (const [key, value] of Object.entries(h.config)) pulumi.runtime.setConfig(key, value);
});
afterAll(async () => {
  await h.close();
});

const savedEnv = process.env.VENDOR_PROJECT_ID;
afterEach(() => {
  if (savedEnv === undefined) delete process.env.VENDOR_PROJECT_ID;
  else process.env.VENDOR_PROJECT_ID = savedEnv;
  setStackConfig("vendor:projectId", PROJECT);
});

/** The default project `check` gives a cluster declared without one, or its failures. */
async function resourceProject(): Promise<unknown> {
  const { inputs, failures } = await h.kind("Kaas").check({}, CLUSTER);
  return failures.length > 0 ? failures : inputs.projectId;
}

/** The project a function reads the cluster from (its `uri` names it), or the function's error. */
async function functionProject(): Promise<unknown> {
  try {
    const info = await getKaas({ kaasId });
    return /\/projects\/([^/]+)\//.exec(info.uri ?? "")?.[1];
  } catch (error) {
    return (error as Error).message;
  }
}

describe.each([
  ["empty", ""],
  ["whitespace", "  \t "],
])("a %s vendor:projectId", (_label, blank) => {
  it("is unset for a resource and a function alike, with no environment", async () => {
    delete process.env.VENDOR_PROJECT_ID;
    setStackConfig("vendor:projectId", blank);
    expect(await resourceProject()).toEqual([MISSING_PROJECT_CHECK]);
    expect(await functionProject()).toBe(MISSING_PROJECT_FUNCTION);
  });

  it("does not hide VENDOR_PROJECT_ID from a resource or a function", async () => {
    process.env.VENDOR_PROJECT_ID = ` ${PROJECT} `;
    setStackConfig("vendor:projectId", blank);
    expect(await resourceProject()).toBe(PROJECT);
    expect(await functionProject()).toBe(PROJECT);
  });
});

it("a set vendor:projectId is trimmed and comes before the environment, for a resource and a function", async () => {
  process.env.VENDOR_PROJECT_ID = "p-from-env";
  setStackConfig("vendor:projectId", ` ${PROJECT}\n`);
  expect(await resourceProject()).toBe(PROJECT);
  expect(await functionProject()).toBe(PROJECT);
});

it("the same settings give the very same client to the provider and to a function", async () => {
  const reads = jest.spyOn(HttpClient.prototype, "request");
  try {
    await getKaas({ kaasId });
    await h.kind("Kaas").read(kaasId, { ...CLUSTER, projectId: PROJECT, kaasId });
    // The function's read, then the provider's read of the cluster and of its kubeconfig.
    expect(reads.mock.contexts).toHaveLength(3);
    for (const context of reads.mock.contexts) expect(context).toBe(client().http);
  } finally {
    reads.mockRestore();
  }
});

it("other settings give a function another client", async () => {
  const reads = jest.spyOn(HttpClient.prototype, "request");
  try {
    await getKaas({ kaasId }, { settings: { requestTimeoutMs: 4_000 } });
    expect(reads.mock.contexts).toHaveLength(1);
    expect(reads.mock.contexts[0]).toBeInstanceOf(HttpClient);
    expect(reads.mock.contexts[0]).not.toBe(client().http);
  } finally {
    reads.mockRestore();
  }
});

it("takes settings overrides in their settings' form: parsed ones as they are, the rest checked as configuration", async () => {
  // `stateNames` and `unknownStateTimeoutMs` are already parsed (a record, milliseconds): the plugin's invokes
  // pass every setting so.
  const info = await getKaas(
    { kaasId },
    { settings: { stateNames: { Ready: "settled" }, unknownStateTimeoutMs: 90_000, pollIntervalMs: 50 } },
  );
  expect(info.kaasId).toBe(kaasId);
  await expect(getKaas({ kaasId }, { settings: { baseUrl: "ftp://nowhere" } })).rejects.toThrow(
    'vendor:baseUrl must be an http(s) URL, got "ftp://nowhere"',
  );
});
