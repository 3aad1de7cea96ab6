// @ts-check
/**
 * `npm run bench`: measures the provider's own cost next to baselines in one run, prints the summary table
 * and writes bench/results/latest.md and bench/results/latest.json. Needs `npm run build` first (the npm
 * script builds). Not a test: nothing here asserts a timing.
 *
 * Rows 2-4, 7, 9 and 10 run through the real Pulumi engine in `.tools/bin` (`bash scripts/engine.sh` builds it);
 * without it they are reported as not measured, never estimated. Options (`npm run bench -- <option>`):
 *   --quick        fewer resources, rounds and a shorter provisioning: a check of the harness, not figures
 *   --skip-engine  only the rows that need no engine (1, 5, 6, 8)
 *   --only lookup  only row 8 (the create's lookup requests): prints its section, writes no results file
 *   --only plugin  only row 9 (the provider plugin path), with --quick or not: prints its section, writes no
 *                  results file
 *   --only archive only row 10 (the release's plugin executable against the npm-installed plugin): prints its
 *                  section, writes no results file
 */
import { execFileSync } from "node:child_process";
import console from "node:console";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { FAST_DURATIONS, startEmulator } from "../dist/emulator/index.js";
import { measureArchive } from "./lib/archive.mjs";
import { BENCH, ROOT, TOKEN, round } from "./lib/common.mjs";
import { engineAvailable, engineVersions, openRun, prepareWorkspace } from "./lib/engine.mjs";
import { measureHotPath } from "./lib/hotpath.mjs";
import { measureLookup } from "./lib/lookup.mjs";
import { measureMemory } from "./lib/memory.mjs";
import { measurePluginPath } from "./lib/plugin.mjs";
import { lookupDetails, render } from "./lib/report.mjs";
import {
  archiveDetails,
  archiveSummaryRows,
  pluginDetails,
  pluginSummaryRows,
  summaryTable,
} from "./lib/report-engine.mjs";
import { measurePreview } from "./lib/preview.mjs";
import { measureProvisioning } from "./lib/provisioning.mjs";
import { measureSerialization } from "./lib/serialization.mjs";
import { loadNow } from "./lib/stats.mjs";
import { measureWaiter } from "./lib/waiter.mjs";

/** Rows that `--only` runs alone. */
const ONLY = ["lookup", "plugin", "archive"];
const args = new Set();
/** @type {string | undefined} */
let only;
for (let i = 2; i < process.argv.length; i++) {
  const arg = process.argv[i];
  if (arg === "--only" || arg.startsWith("--only=")) {
    only = arg === "--only" ? process.argv[++i] : arg.slice("--only=".length);
    if (!ONLY.includes(only ?? "")) {
      console.error(`bench: --only takes one of ${ONLY.join(", ")}`);
      process.exit(2);
    }
  } else if (arg === "--quick" || arg === "--skip-engine") args.add(arg);
  else {
    console.error(`bench: unknown option ${arg} (known: --quick, --skip-engine, --only lookup|plugin)`);
    process.exit(2);
  }
}
const quick = args.has("--quick");

/** How much of each engine row runs: the sizes, or a quick check of the harness. */
const ENGINE_SETTINGS = quick
  ? {
      resources: 20,
      rounds: 2,
      upRounds: 1,
      provisioningMs: 5_000,
      provisioningRounds: 1,
      fleet: 10,
      defaultIntervalOffsetsMs: [0, 5_000],
    }
  : {
      resources: 100,
      rounds: 5,
      upRounds: 3,
      provisioningMs: 30_000,
      provisioningRounds: 3,
      fleet: 50,
      defaultIntervalOffsetsMs: [0, 2_500, 5_000, 7_500],
    };

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

/** Files of the package or the benchmark that differ from the commit (what the figures also measured). */
function uncommitted() {
  try {
    return execFileSync(
      "git",
      [
        "status",
        "--porcelain",
        "--",
        "sdk",
        "provider",
        "rest",
        "schemas",
        "emulator",
        "bench",
        "package.json",
      ],
      { cwd: ROOT, encoding: "utf8" },
    )
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.includes("bench/results/"))
      .map((line) => line.slice(3));
  } catch {
    return [];
  }
}

/**
 * Rows 2-4, 7, 9 and 10 (`all`), row 9 alone (`plugin`) or row 10 alone (`archive`): through the engine, against
 * one emulator in this process; null without the engine.
 * @param {{ rows: "all" | "plugin" | "archive" }} which
 */
async function measureEngine({ rows }) {
  if (!engineAvailable()) return null;
  prepareWorkspace();
  const emulator = await startEmulator({ tokens: [TOKEN], durations: FAST_DURATIONS });
  const run = openRun();
  const onProgress = (/** @type {string} */ line) => process.stderr.write(`\n  ${line}`);
  try {
    const s = ENGINE_SETTINGS;
    const common = { run, emulator, token: TOKEN, onProgress };
    const sizes = { resources: s.resources, rounds: s.rounds, upRounds: s.upRounds };
    if (rows === "archive")
      return { settings: { ...s, quick }, archive: await measureArchive({ ...common, ...sizes }) };
    const pluginOnly = rows === "plugin";
    const preview = pluginOnly ? null : await measurePreview({ ...common, ...sizes, profile: true });
    const provisioning = pluginOnly
      ? null
      : await measureProvisioning({
          ...common,
          provisioningMs: s.provisioningMs,
          rounds: s.provisioningRounds,
          fleet: s.fleet,
          defaultIntervalOffsetsMs: s.defaultIntervalOffsetsMs,
        });
    const plugin = await measurePluginPath({ ...common, ...sizes });
    const archive = pluginOnly ? null : await measureArchive({ ...common, ...sizes });
    process.stderr.write("\n");
    return { versions: engineVersions(), settings: { ...s, quick }, preview, provisioning, plugin, archive };
  } finally {
    run.close();
    await emulator.close();
  }
}

if (only === "lookup") {
  // One row alone, for developing it: printed, not written (results/latest.* hold whole runs only).
  const lookup = await section("row 8, create lookup requests", measureLookup);
  console.log(lookupDetails(lookup));
  process.exit(0);
}
if (only === "archive") {
  const engine = await section("row 10, the release's plugin executable", () =>
    measureEngine({ rows: "archive" }),
  );
  if (engine === null) {
    console.error(
      "bench: the Pulumi engine is missing from .tools/bin (build it with `bash scripts/engine.sh`)",
    );
    process.exit(1);
  }
  console.log(`${summaryTable(archiveSummaryRows(engine))}\n\n${archiveDetails(engine)}`);
  process.exit(0);
}
if (only === "plugin") {
  const engine = await section(`row 9, the provider plugin path${quick ? " (quick)" : ""}`, () =>
    measureEngine({ rows: "plugin" }),
  );
  if (engine === null) {
    console.error(
      "bench: the Pulumi engine is missing from .tools/bin (build it with `bash scripts/engine.sh`)",
    );
    process.exit(1);
  }
  console.log(`${summaryTable(pluginSummaryRows(engine))}\n\n${pluginDetails(engine)}`);
  process.exit(0);
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
  uncommitted: uncommitted(),
  loadAtStart: loadNow(),
};

const serialization = await section("row 1, serialized provider and state bytes", measureSerialization);
const waiter = await section("row 5, waiter on a fake clock", measureWaiter);
const hotPath = await section("row 6, check and diff", measureHotPath);
const memory = await section("row 6, peak memory", measureMemory);
const lookup = await section("row 8, create lookup requests", measureLookup);
const engine = args.has("--skip-engine")
  ? null
  : await section(`rows 2-4, 7, 9 and 10 through the engine${quick ? " (quick)" : ""}`, () =>
      measureEngine({ rows: "all" }),
    );

const results = {
  machine,
  engine,
  engineMissing: engine === null && !args.has("--skip-engine"),
  serialization,
  waiter,
  hotPath,
  memory,
  lookup,
  totalSeconds: round((Date.now() - started) / 1000, 1),
};
machine.loadAtEnd = loadNow();

const { summary, markdown } = render(results);
const out = path.join(BENCH, "results");
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, "latest.md"), markdown);
fs.writeFileSync(path.join(out, "latest.json"), JSON.stringify(results, null, 2) + "\n");
console.log(summary);
console.log(`\nDetails: bench/results/latest.md, bench/results/latest.json (${results.totalSeconds} s)`);
