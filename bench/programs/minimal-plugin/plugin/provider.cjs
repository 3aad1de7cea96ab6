// The minimal provider plugin, the plugin path's baselines: `@pulumi/pulumi/provider`'s gRPC server with one
// resource type. Without configuration it does no I/O: check returns the inputs, diff reports no change, create
// returns an id and the inputs, read returns the state, as the dynamic path's baseline (programs/baseline) does.
// With `minimal:baseUrl` set (the engine passes a plugin its configuration in PULUMI_CONFIG) it sends the
// service the requests this package's plugin sends for a cluster, with plain `fetch` and nothing else: a create
// lists by owner tag and by name, posts, polls until Active and downloads the kubeconfig; a read gets the cluster
// and its kubeconfig; a delete deletes and polls until it is gone. What this package's plugin costs beyond that
// is its own.
"use strict";
/* global require, process, fetch, setTimeout, URL -- Node's globals (the lint configuration declares none) */
/* eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS, as the programs: no build step. */
const { main } = require("@pulumi/pulumi/provider");

/** @type {{ baseUrl?: string; token?: string; projectId?: string; pollIntervalMs?: string }} */
const config = JSON.parse(process.env.PULUMI_CONFIG || "{}");
const POLL_MS = Number(config.pollIntervalMs || "100");

/**
 * One request of the service's API; resolves with the parsed answer, or undefined for a 404.
 * @param {string} method @param {string} path @param {Record<string, string>} [query] @param {unknown} [body]
 */
async function call(method, path, query = {}, body = undefined) {
  const url = new URL(`${config.baseUrl}/projects/${config.projectId}/providers/Vendor.Container${path}`);
  for (const [key, value] of Object.entries({ "api-version": "1", ...query }))
    url.searchParams.set(key, value);
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${config.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 404) return undefined;
  if (!response.ok)
    throw new Error(`${method} ${path} failed (${response.status}): ${await response.text()}`);
  const type = response.headers.get("content-type") || "";
  return type.includes("json") ? response.json() : response.text();
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls the cluster `id` until `done` accepts it (a missing cluster is undefined), waiting one interval before
 * each read, as this package's waiter does after a request that changes the object.
 */
async function poll(/** @type {string} */ id, /** @type {(k: any) => boolean} */ done) {
  for (;;) {
    await sleep(POLL_MS);
    const kaas = await call("GET", `/kaas/${id}`);
    if (done(kaas)) return kaas;
  }
}

/** The create body of a cluster of the benchmark's arguments (bench/programs/inputs.js). */
const createBody = (/** @type {any} */ inputs, /** @type {string} */ owner) => ({
  metadata: { name: inputs.name, location: { value: inputs.location }, tags: [...inputs.tags, owner] },
  properties: {
    preset: true,
    nodeCidr: inputs.nodeCidr,
    kubernetesVersion: { value: inputs.kubernetesVersion },
    nodePools: inputs.nodePools,
    storage: { maxCumulativeVolumeSize: inputs.maxCumulativeVolumeSize },
    billingPlan: { billingPeriod: inputs.billingPeriod },
  },
});

/** The cluster `id` and its kubeconfig, as outputs. */
async function outputs(/** @type {string} */ id, /** @type {any} */ inputs) {
  const kaas = await call("GET", `/kaas/${id}`);
  if (kaas === undefined) return undefined;
  const kubeconfig = await call("GET", `/kaas/${id}/download`);
  return { ...inputs, state: kaas.status?.state, kubeconfig: String(kubeconfig).length };
}

/** @type {import("@pulumi/pulumi/provider").Provider} */
const provider = {
  version: "1.0.0",
  async check(_urn, _olds, news) {
    return { inputs: news };
  },
  async diff() {
    return { changes: false };
  },
  async create(urn, inputs) {
    if (!config.baseUrl) return { id: inputs.name, outs: inputs };
    const owner = `pulumi-ct-owner:${urn.split("::").pop()}`;
    await call("GET", "/kaas", { filter: `metadata.tags:eq(${JSON.stringify(owner)})` });
    await call("GET", "/kaas", { filter: `metadata.name:eq(${JSON.stringify(inputs.name)})` });
    const created = await call("POST", "/kaas", {}, createBody(inputs, owner));
    const id = created.metadata.id;
    await poll(id, (kaas) => kaas?.status?.state === "Active");
    const kubeconfig = await call("GET", `/kaas/${id}/download`);
    return { id, outs: { ...inputs, state: "Active", kubeconfig: String(kubeconfig).length } };
  },
  async read(id, _urn, props) {
    if (!config.baseUrl) return { id, props };
    const outs = await outputs(id, props);
    return outs === undefined ? { id: "", props: {} } : { id, props: outs };
  },
  async update(_id, _urn, _olds, news) {
    return { outs: news };
  },
  async delete(id) {
    if (!config.baseUrl) return;
    await call("DELETE", `/kaas/${id}`);
    await poll(id, (kaas) => kaas === undefined || kaas.status?.state === "Deleted");
  },
};

// The engine passes its address; `main` serves the protocol and prints the port, as the engine expects.
main(provider, process.argv.slice(2));
