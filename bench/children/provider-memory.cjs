// @ts-check
/* global require, process, console -- Node's CommonJS globals (the lint configuration declares none) */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: resolves the installed package. */
/**
 * Row 7, where the dynamic-provider process's memory goes: run with the engine's Node (`--expose-gc`) and
 * cwd = the benchmark's workspace (`.tools/bench`, where the package is installed as users install it), it
 * loads, one step at a time, what that process loads during a `pulumi up` of clusters, and prints one JSON
 * line with the RSS after each step (after a full GC): `@pulumi/pulumi` and gRPC (the engine's provider host,
 * the baseline's process too), this package's provider entry point (what a preview loads), the REST client
 * (the first create or read; it loads no wire schema), and the validators a cluster's create uses (generated
 * at build time, loaded by name on first use: schemas/validate.ts).
 */
const path = require("node:path");
const { createRequire } = require("node:module");

const from = createRequire(path.join(process.cwd(), "program.js"));
const gc = /** @type {() => void} */ (/** @type {any} */ (globalThis).gc);
/** @type {{ step: string; rssMb: number; heapUsedMb: number }[]} */
const steps = [];
const record = (/** @type {string} */ step) => {
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  steps.push({ step, rssMb: rss / 1024 / 1024, heapUsedMb: heapUsed / 1024 / 1024 });
};

record("Node.js");
from("@pulumi/pulumi");
from("@grpc/grpc-js");
record("@pulumi/pulumi and gRPC (the provider host)");
const provider = from("pulumi-vendor-container/provider");
provider.configure({
  get: (/** @type {string} */ key) => (key === "vendor:baseUrl" ? "http://127.0.0.1:9" : undefined),
});
record("pulumi-vendor-container/provider (a preview)");
// The package exports no deeper subpaths: reach the compiled files next to the entry point.
const dist = path.dirname(path.dirname(from.resolve("pulumi-vendor-container/provider")));
require(path.join(dist, "rest", "lazy.js")).clientModule();
record("REST client (the first create or read)");
const { validateSchema } = require(path.join(dist, "schemas", "validate.js"));
// A list with one item, as the creation lookup's answers have.
for (const name of ["KaasList", "KaasInsert", "KaasResponse"]) {
  validateSchema(name, name === "KaasList" ? { values: [{}] } : {});
  record(`validator of ${name} loaded`);
}
console.log(JSON.stringify(steps));
