// @ts-check
/**
 * Rows 2a-2c and 7 through the real engine: `pulumi preview` of 100 clusters to create, `pulumi up` of them,
 * `pulumi preview` with nothing to change and `pulumi refresh`, each run alternately with the baseline program
 * (100 minimal dynamic resources with the same inputs, bench/programs/baseline); the preview of the creation
 * also with `PULUMI_DEBUG_PROMISE_LEAKS` set on both sides, which turns sdk/leakTraces.ts off. The probe in every Node
 * process the CLI starts (children/probe.cjs) gives row 7: when the dynamic-provider process answered its
 * first `check`, and its peak RSS during the `up`. Then one CPU profile of each side's preview, which shows
 * where the difference goes.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { FAST_DURATIONS } from "../../dist/emulator/index.js";
import { BENCH, median, round } from "./common.mjs";
import { BIN, WORKSPACE, providerProbe } from "./engine.mjs";
import { summarizeProfile } from "./profile.mjs";
import { LoadLog, paired, timings } from "./stats.mjs";

/** @typedef {import("./engine.mjs").EngineRun} EngineRun */
/** @typedef {import("./engine.mjs").BenchStack} BenchStack */
/** @typedef {import("./engine.mjs").CliResult} CliResult */
/** @typedef {import("./engine.mjs").ProbeReport} ProbeReport */
/** @typedef {import("../../dist/emulator/index.js").RunningEmulator} RunningEmulator */
/** @typedef {"ours" | "baseline"} Side */

const MB = 1024 * 1024;
const SIDES = /** @type {const} */ (["ours", "baseline"]);

/**
 * The order of the sides in round `i`: rotated by one every round, so that each side runs first (and, with
 * more than two, in each position) as often as the others. For two sides: ours first in even rounds, the
 * baseline first in odd ones.
 * @template {string} S
 * @param {number} i
 * @param {readonly S[]} sides
 * @returns {S[]}
 */
export const orderOf = (i, sides) => sides.map((_, k) => sides[(k + i) % sides.length]);

/**
 * An object with `make()`'s value for each of `sides`.
 * @template {string} S
 * @template T
 * @param {readonly S[]} sides
 * @param {(side: S) => T} make
 * @returns {Record<S, T>}
 */
export const bySide = (sides, make) =>
  /** @type {Record<S, T>} */ (Object.fromEntries(sides.map((side) => [side, make(side)])));

/**
 * @template {string} S
 * @typedef {{ stacks: Record<S, BenchStack>; sides: readonly S[]; load: LoadLog;
 *   onProgress: (line: string) => void }} Sides
 */

/**
 * @template {string} S
 * @typedef {{ env?: Record<string, string>; between?: () => Promise<void>; before?: (side: S) => void;
 *   after?: (side: S) => void }} AlternateOptions
 */

/**
 * Runs `args` on every side, one after the other in the order of `orderOf`, `n` rounds; `between` runs
 * (untimed) after each round but the last. The load is sampled before every run.
 * @template {string} S
 * @param {Sides<S>} on
 * @param {string} label
 * @param {string[]} args
 * @param {number} n
 * @param {AlternateOptions<S>} [extra]
 * @returns {Promise<Record<S, CliResult[]>>}
 */
export async function alternate(on, label, args, n, extra = {}) {
  const results = bySide(on.sides, () => /** @type {CliResult[]} */ ([]));
  for (let i = 0; i < n; i += 1) {
    for (const side of orderOf(i, on.sides)) {
      on.load.sample();
      extra.before?.(side);
      const result = await on.stacks[side].run(args, { extraEnv: extra.env });
      extra.after?.(side);
      results[side].push(result);
      on.onProgress(`${label} ${side} ${(result.ms / 1000).toFixed(1)} s`);
    }
    if (extra.between && i < n - 1) await extra.between();
  }
  return results;
}

/**
 * Counts the service requests of each run of the `counted` sides, by shape (`requestShape`); for
 * `alternate`'s `before` and `after`.
 * @template {string} S
 * @param {RunningEmulator} emulator
 * @param {readonly S[]} counted
 */
export function requestCounter(emulator, counted) {
  const runs = bySide(counted, () => /** @type {Record<string, number>[]} */ ([]));
  return {
    runs,
    before: () => emulator.emulator.clearRequests(),
    after: (/** @type {string} */ side) => {
      if (!counted.includes(/** @type {S} */ (side))) return;
      /** @type {Record<string, number>} */
      const shapes = {};
      for (const r of emulator.emulator.requests())
        shapes[requestShape(r)] = (shapes[requestShape(r)] ?? 0) + 1;
      runs[/** @type {S} */ (side)].push(shapes);
    },
  };
}

/**
 * Stack configuration of both programs: the same keys on both sides, so the only difference is the package.
 * @param {RunningEmulator} emulator
 * @param {string} token
 * @param {Record<string, string>} extra plain values (`bench:count`, `vendor:pollIntervalMs`, ...)
 */
export function benchConfig(emulator, token, extra) {
  /** @type {Record<string, { value: string; secret?: boolean }>} */
  const config = {
    "vendor:baseUrl": { value: emulator.url },
    "vendor:token": { value: token, secret: true },
    "vendor:projectId": { value: "p-bench" },
  };
  for (const [key, value] of Object.entries(extra)) config[key] = { value };
  return config;
}

/** Milliseconds from the provider process's start to its first answered `check`, or null. */
export const firstCheckMs = (/** @type {ProbeReport | null} */ p) => p?.methods.check?.firstEndMs ?? null;

/** `GET /kaas/{id}` style: the method and the path with ids replaced, below the project's provider prefix. */
function requestShape(/** @type {{ method: string; path: string }} */ r) {
  const below = r.path.replace(/^\/projects\/[^/]+\/providers\/[^/]+/, "");
  return `${r.method} ${below.replace(/\/(kaas|backups|registries)\/[^/]+/g, "/$1/{id}")}`;
}

/**
 * @param {Record<string, number>} counts
 * @param {number} per
 */
export const perResource = (counts, per) =>
  Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, round(v / per, 2)]));

/** The wall times of `runs`, ms. */
export const ms = (/** @type {CliResult[]} */ runs) => runs.map((r) => r.ms);
/** The provider process's probe report of each of `runs`. */
export const probesOf = (/** @type {CliResult[]} */ runs) => runs.map(providerProbe);
/** The program process's probe report of each of `runs`. */
export const programOf = (/** @type {CliResult[]} */ runs) =>
  runs.map((r) => r.probes.find((p) => p.role === "program") ?? null);
/** The median of the numbers among `xs`, to 0.1, or null without any. */
export const medianOf = (/** @type {(number | null | undefined)[]} */ xs) => {
  const known = /** @type {number[]} */ (xs.filter((x) => typeof x === "number"));
  return known.length === 0 ? null : round(median(known), 1);
};
/** Peak RSS of a probe report, MB, or null. */
export const peakRssMb = (/** @type {ProbeReport | null} */ p) => (p ? p.peakRss / MB : null);

/**
 * @param {{ run: EngineRun; emulator: RunningEmulator; token: string; resources: number; rounds: number;
 *   upRounds: number; profile: boolean; onProgress: (line: string) => void }} options
 */
export async function measurePreview(options) {
  const { run, emulator, token, resources, rounds, upRounds, onProgress } = options;
  emulator.emulator.reset();
  emulator.emulator.updateConfig({ durations: FAST_DURATIONS });
  const config = benchConfig(emulator, token, {
    "bench:count": String(resources),
    "vendor:pollIntervalMs": "100",
  });
  /** @type {Record<Side, BenchStack>} */
  const stacks = {
    ours: await run.stack("ours", "preview", config),
    baseline: await run.stack("baseline", "preview", config),
  };
  const load = new LoadLog();

  /** @type {Sides<Side>} */
  const both = { stacks, sides: SIDES, load, onProgress };
  /** Counts the service requests of each run of ours, by shape. */
  const oursRequests = () => requestCounter(emulator, /** @type {const} */ (["ours"]));

  // ---- 2a: preview of the creation ----
  const create = await alternate(both, "2a preview (create)", ["preview"], rounds);

  // ---- 2a again with PULUMI_DEBUG_PROMISE_LEAKS on both sides: sdk/leakTraces.ts off, what it saves ----
  const createDebugLeaks = await alternate(
    both,
    "2a preview (create), PULUMI_DEBUG_PROMISE_LEAKS=1",
    ["preview"],
    rounds,
    {
      env: { PULUMI_DEBUG_PROMISE_LEAKS: "1" },
    },
  );

  // ---- where the time goes: one profiled preview of each side, and each with formatted leak traces ----
  const profile = options.profile ? await profilePreviews(run, stacks) : null;

  // ---- row 7 (and the state of 2b/2c): up of the resources, destroyed between rounds ----
  const upRequests = oursRequests();
  const ups = await alternate(both, "7 up", ["up", "--yes", "--skip-preview"], upRounds, {
    ...upRequests,
    between: async () => {
      for (const side of SIDES) await stacks[side].run(["destroy", "--yes", "--skip-preview"]);
    },
  });

  // ---- 2b: preview with nothing to change (fails if anything would change) ----
  const noChange = await alternate(
    both,
    "2b preview (no change)",
    ["preview", "--expect-no-changes"],
    rounds,
  );

  // ---- 2c: refresh (fails if it changes anything), counting the service calls of ours ----
  const refreshRequests = oursRequests();
  const refresh = await alternate(
    both,
    "2c refresh",
    ["refresh", "--yes", "--skip-preview", "--expect-no-changes"],
    rounds,
    refreshRequests,
  );

  // ---- 2c again with `vendor:kubeconfigRefresh: onChange` (through its variable): one request per cluster ----
  const refreshOnChangeRequests = oursRequests();
  const refreshOnChange = await alternate(
    both,
    "2c refresh, VENDOR_KUBECONFIG_REFRESH=onChange",
    ["refresh", "--yes", "--skip-preview", "--expect-no-changes"],
    rounds,
    { ...refreshOnChangeRequests, env: { VENDOR_KUBECONFIG_REFRESH: "onChange" } },
  );

  // Leave nothing behind in the emulator (the next rows reset it anyway) and keep the stacks empty.
  for (const side of SIDES) await stacks[side].run(["destroy", "--yes", "--skip-preview"]);

  const sideFacts = (/** @type {Side} */ side) => {
    const previews = [...create[side], ...noChange[side]];
    return {
      firstCheckMs: medianOf(probesOf(previews).map(firstCheckMs)),
      firstCheckRunsMs: probesOf(create[side]).map((p) => round(firstCheckMs(p) ?? NaN, 0)),
      providerLoadMs: medianOf(
        probesOf(previews).map((p) => p?.packageLoadMs["pulumi-vendor-container/provider"]),
      ),
      programLoadMs: medianOf(programOf(previews).map((p) => p?.packageLoadMs["pulumi-vendor-container"])),
      programCpuMs: medianOf(programOf(create[side]).map((p) => p?.cpuMs)),
      providerCpuMs: medianOf(probesOf(create[side]).map((p) => p?.cpuMs)),
      checkCalls: medianOf(probesOf(create[side]).map((p) => p?.methods.check?.count)),
      previewPeakRssMb: medianOf(probesOf(create[side]).map(peakRssMb)),
      upPeakRssMb: medianOf(probesOf(ups[side]).map(peakRssMb)),
      upPeakRssRunsMb: probesOf(ups[side]).map((p) => (p ? round(p.peakRss / MB, 1) : null)),
      upFirstCheckMs: medianOf(probesOf(ups[side]).map(firstCheckMs)),
      up: timings(ms(ups[side])),
      consoleLinesInPreview: create[side][0].output
        .split("\n")
        .filter((line) => line.includes("[vendor-container]")).length,
      refreshReadCalls: medianOf(probesOf(refresh[side]).map((p) => p?.methods.read?.count)),
      refreshDiffCalls: medianOf(probesOf(refresh[side]).map((p) => p?.methods.diff?.count)),
    };
  };

  return {
    resources,
    rounds,
    upRounds,
    load: load.summary(),
    create: paired(ms(create.ours), ms(create.baseline)),
    createDebugLeaks: paired(ms(createDebugLeaks.ours), ms(createDebugLeaks.baseline)),
    noChange: paired(ms(noChange.ours), ms(noChange.baseline)),
    refresh: paired(ms(refresh.ours), ms(refresh.baseline)),
    refreshRequestsPerResource: perResource(refreshRequests.runs.ours[0], resources),
    refreshOnChange: paired(ms(refreshOnChange.ours), ms(refreshOnChange.baseline)),
    refreshOnChangeRequestsPerResource: perResource(refreshOnChangeRequests.runs.ours[0], resources),
    upRequestsPerResource: perResource(upRequests.runs.ours[0], resources),
    ours: sideFacts("ours"),
    baseline: sideFacts("baseline"),
    profile,
    providerMemorySteps: providerMemorySteps(),
  };
}

/**
 * RSS of a process that loads, step by step, what the dynamic-provider process loads during an `up` of
 * clusters (children/provider-memory.cjs), with the engine's Node, from the workspace.
 * @returns {{ step: string; rssMb: number; heapUsedMb: number }[]}
 */
function providerMemorySteps() {
  const stdout = execFileSync(
    path.join(BIN, "node"),
    ["--expose-gc", path.join(BENCH, "children", "provider-memory.cjs")],
    { cwd: WORKSPACE, encoding: "utf8" },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "[]").map(
    (/** @type {{ step: string; rssMb: number; heapUsedMb: number }} */ s) => ({
      step: s.step,
      rssMb: round(s.rssMb, 1),
      heapUsedMb: round(s.heapUsedMb, 1),
    }),
  );
}

/**
 * One `pulumi preview` of the creation per variant with `--cpu-prof` in every Node process: ours, the
 * baseline, and both with `PULUMI_DEBUG_PROMISE_LEAKS` set (which turns off sdk/leakTraces.ts, so it shows what
 * the SDK's leak traces cost a cluster when every frame of every one is source-mapped).
 * @param {EngineRun} run
 * @param {Record<Side, BenchStack>} stacks
 */
async function profilePreviews(run, stacks) {
  const variants = /** @type {const} */ ([
    ["ours", "ours", {}],
    ["baseline", "baseline", {}],
    ["ours, PULUMI_DEBUG_PROMISE_LEAKS=1", "ours", { PULUMI_DEBUG_PROMISE_LEAKS: "1" }],
    ["baseline, PULUMI_DEBUG_PROMISE_LEAKS=1", "baseline", { PULUMI_DEBUG_PROMISE_LEAKS: "1" }],
  ]);
  const out = [];
  for (const [label, side, env] of variants) {
    const dir = fs.mkdtempSync(path.join(run.dir, "profile-"));
    const result = await stacks[side].run(["preview"], {
      extraEnv: {
        ...env,
        NODE_OPTIONS: `${run.nodeOptions} --cpu-prof --cpu-prof-dir=${dir}`,
      },
    });
    /** @type {Record<string, ReturnType<typeof summarizeProfile>>} */
    const processes = {};
    for (const file of fs.readdirSync(dir)) {
      const text = fs.readFileSync(path.join(dir, file), "utf8");
      const role = text.includes("cmd/dynamic-provider")
        ? "provider"
        : text.includes("cmd/run/index.js")
          ? "program"
          : null;
      if (role) processes[role] = summarizeProfile(path.join(dir, file));
    }
    out.push({ label, previewS: round(result.ms / 1000, 2), ...processes });
  }
  return out;
}
