// @ts-check
/**
 * `npm run bench`: measures the provider's own cost next to baselines in one run, prints the summary table
 * and writes bench/results/latest.md and bench/results/latest.json. Needs `npm run build` first (the npm
 * script builds). Not a test: nothing here asserts a timing.
 *
 * Rows 2-4 of the benchmark issue (`pulumi preview` / `pulumi up` timings) need the Pulumi engine, whose
 * Node language host cannot be built offline: they are reported as not measured, never estimated.
 */
import { execFileSync } from "node:child_process";
import console from "node:console";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { BENCH, ROOT, round } from "./lib/common.mjs";
import { measureHotPath } from "./lib/hotpath.mjs";
import { measureMemory } from "./lib/memory.mjs";
import { render } from "./lib/report.mjs";
import { measureSerialization } from "./lib/serialization.mjs";
import { measureWaiter } from "./lib/waiter.mjs";

if (!fs.existsSync(path.join(ROOT, "dist", "provider", "index.js"))) {
  console.error("bench: dist/ is missing; run `npm run build` first");
  process.exit(1);
}

/**
 * @template T
 * @param {string} name
 * @param {() => T | Promise<T>} work
 * @returns {Promise<T>}
 */
async function section(name, work) {
  const started = Date.now();
  process.stderr.write(`bench: ${name}...`);
  const result = await work();
  process.stderr.write(` ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return result;
}

function commit() {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

const started = Date.now();
const machine = {
  date: new Date().toISOString(),
  cpu: os.cpus()[0]?.model ?? "unknown",
  cores: os.cpus().length,
  totalMemoryGb: round(os.totalmem() / 1024 ** 3, 1),
  platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  node: process.version,
  commit: commit(),
};

const serialization = await section("row 1, serialized provider and state bytes", measureSerialization);
const waiter = await section("row 5, waiter on a fake clock", measureWaiter);
const hotPath = await section("row 6, check and diff", measureHotPath);
const memory = await section("row 6, peak memory", measureMemory);

const results = {
  machine,
  notMeasured: {
    reason: "needs the Pulumi engine (Node language host unavailable offline)",
    rows: [2, 3, 4],
  },
  serialization,
  waiter,
  hotPath,
  memory,
  totalSeconds: round((Date.now() - started) / 1000, 1),
};

const { summary, markdown } = render(results);
const out = path.join(BENCH, "results");
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, "latest.md"), markdown);
fs.writeFileSync(path.join(out, "latest.json"), JSON.stringify(results, null, 2) + "\n");
console.log(summary);
console.log(`\nDetails: bench/results/latest.md, bench/results/latest.json (${results.totalSeconds} s)`);
