// @ts-check
/**
 * Rows 3 and 4 through the real engine: `pulumi up` of clusters whose provisioning takes 30 s on the
 * emulator. Each round runs, in rotating order and each followed by an untimed `pulumi destroy`:
 *
 * - row 3: one cluster polled every second, against the baseline's one minimal resource whose create sleeps
 *   as long as the provisioning;
 * - row 4: fifty clusters at once (`--parallel 50`), against the one cluster of the same round.
 *
 * Then one cluster with the default poll interval (10 s) and provisioning times spread over one interval, to
 * show how late readiness is seen, and rounds of row 4
 * with the emulator's rate limit on. How late readiness was seen is read from the emulator: a cluster is ready
 * `kaasCreateMs` after its creation date, and seen by the first GET of it at or after that time.
 */
import { FAST_DURATIONS } from "../../dist/emulator/index.js";
import { median, round } from "./common.mjs";
import { benchConfig } from "./preview.mjs";
import { LoadLog, paired } from "./stats.mjs";

/** @typedef {import("./engine.mjs").EngineRun} EngineRun */
/** @typedef {import("./engine.mjs").BenchStack} BenchStack */
/** @typedef {import("../../dist/emulator/index.js").RunningEmulator} RunningEmulator */
/** @typedef {import("../../dist/emulator/index.js").RequestLogEntry} RequestLogEntry */

/** The rate limit of the integration load test (tests/integration/reliability-load.test.ts). */
export const RATE_LIMIT = { ratePerSecond: 100, burst: 20 };
const RETRY_AFTER_S = 1;

const CLUSTER_PATH = /\/kaas\/([^/?]+)$/;

/**
 * How late each cluster was seen ready, in seconds: from its creation date + the provisioning time (when the
 * emulator's lifecycle turns it `Active`) to the first `GET /kaas/{id}` at or after that.
 * @param {RequestLogEntry[]} requests
 * @param {{ id: string; createdMs: number }[]} clusters
 * @param {number} provisioningMs
 */
export function readinessLagsS(requests, clusters, provisioningMs) {
  /** @type {Map<string, number[]>} */
  const getsById = new Map();
  for (const r of requests) {
    const id = r.method === "GET" && r.status === 200 ? CLUSTER_PATH.exec(r.path)?.[1] : undefined;
    if (id) getsById.set(id, [...(getsById.get(id) ?? []), Date.parse(r.time)]);
  }
  return clusters.flatMap(({ id, createdMs }) => {
    const ready = createdMs + provisioningMs;
    const seen = (getsById.get(id) ?? []).find((t) => t >= ready);
    return seen === undefined ? [] : [round((seen - ready) / 1000, 2)];
  });
}

/**
 * The resources a failed `pulumi up` names with their error, from its diagnostics: `{ resource, error }`.
 * @param {string} output
 */
export function failuresOf(output) {
  /** @type {{ resource: string; error: string }[]} */
  const failures = [];
  const lines = output.split("\n");
  lines.forEach((line, i) => {
    const resource = /^\s+pulumi-nodejs:dynamic\/[^ ]+ \(([^)]+)\):$/.exec(line)?.[1];
    const error = /^\s+error: (.*)$/.exec(lines[i + 1] ?? "")?.[1];
    if (resource && error) failures.push({ resource, error });
  });
  return failures;
}

/**
 * @param {{ run: EngineRun; emulator: RunningEmulator; token: string; provisioningMs: number; rounds: number;
 *   fleet: number; defaultIntervalOffsetsMs: number[]; onProgress: (line: string) => void }} options
 */
export async function measureProvisioning(options) {
  const { run, emulator, token, provisioningMs, rounds, fleet, onProgress } = options;
  const durations = {
    ...FAST_DURATIONS,
    kaasCreateMs: provisioningMs,
    kaasDeleteMs: 200,
    tombstoneMs: 100,
  };
  /** @param {import("../../dist/emulator/index.js").FaultConfig["rateLimit"]} rateLimit */
  const resetEmulator = (rateLimit) => {
    emulator.emulator.reset();
    emulator.emulator.updateConfig({ durations });
    emulator.emulator.setFaults({ rateLimit, retryAfterSeconds: RETRY_AFTER_S });
  };
  const config = (/** @type {number} */ count, /** @type {string | null} */ pollMs) =>
    benchConfig(emulator, token, {
      "bench:count": String(count),
      "bench:createSleepMs": String(provisioningMs),
      ...(pollMs === null ? {} : { "vendor:pollIntervalMs": pollMs }),
    });
  const stacks = {
    one: await run.stack("ours", "one", config(1, "1000")),
    baseline: await run.stack("baseline", "one", config(1, "1000")),
    fleet: await run.stack("ours", "fleet", config(fleet, "1000")),
    oneDefault: await run.stack("ours", "one-default", config(1, null)),
  };
  const load = new LoadLog();
  // "At once": the CLI runs at most 4 operations per core by default (`defaultParallel` in Pulumi's
  // cmd/pulumi/operations/up.go: 8 on 2 cores), which would create fifty clusters in waves, whatever the
  // provider; every `up` here, of one cluster or fifty, allows as many as there are clusters.
  const parallel = ["--parallel", String(fleet)];

  /**
   * Times `pulumi up` of `stack`, then destroys it (untimed); returns the time and what the service saw.
   * @param {keyof typeof stacks} name
   * @param {string} label
   * @param {number} [provisioning] the emulator's provisioning time of this run, when not `provisioningMs`
   */
  async function upAndDestroy(name, label, provisioning = provisioningMs) {
    load.sample();
    emulator.emulator.clearRequests();
    const { ms, failed, output } = await stacks[name].run(["up", "--yes", "--skip-preview", ...parallel], {
      allowFailure: true,
    });
    const requests = emulator.emulator.requests();
    const clusters = emulator.emulator.state().kaas.map((k) => {
      const metadata = /** @type {{ id: string; creationDate: string }} */ (k.metadata);
      return { id: metadata.id, createdMs: Date.parse(metadata.creationDate) };
    });
    // A failed `up` is a result (the report says which resources failed and why), not the end of the run.
    const errors = failed ? failuresOf(output) : [];
    onProgress(`${label} ${(ms / 1000).toFixed(1)} s${failed ? `, FAILED: ${errors.length} resources` : ""}`);
    await stacks[name].run(["destroy", "--yes", "--skip-preview", ...parallel]);
    return {
      ms,
      failed,
      errors,
      requests: requests.length,
      throttled: requests.filter((r) => r.status === 429).length,
      provisioningS: provisioning / 1000,
      lagsS: readinessLagsS(requests, clusters, provisioning),
    };
  }

  // ---- rows 3 and 4, rounds in rotating order ----
  resetEmulator(null);
  /** @type {Record<"one" | "baseline" | "fleet", Awaited<ReturnType<typeof upAndDestroy>>[]>} */
  const runs = { one: [], baseline: [], fleet: [] };
  const rotations = /** @type {const} */ ([
    ["one", "baseline", "fleet"],
    ["baseline", "fleet", "one"],
    ["fleet", "one", "baseline"],
  ]);
  for (let i = 0; i < rounds; i += 1) {
    for (const name of rotations[i % rotations.length]) {
      runs[name].push(await upAndDestroy(name, `3/4 up ${name === "fleet" ? `${fleet} clusters` : name}`));
    }
  }

  // ---- row 3 with the default poll interval ----
  /** @type {Awaited<ReturnType<typeof upAndDestroy>>[]} */
  const defaultRuns = [];
  // The lag depends on where readiness falls between two polls: 30 s is three intervals exactly, so each run
  // moves the provisioning by an offset within one interval.
  for (const offset of options.defaultIntervalOffsetsMs) {
    const provisioning = provisioningMs + offset;
    emulator.emulator.updateConfig({ durations: { ...durations, kaasCreateMs: provisioning } });
    defaultRuns.push(
      await upAndDestroy(
        "oneDefault",
        `3 up, default poll interval, provisioning ${provisioning / 1000} s`,
        provisioning,
      ),
    );
  }
  emulator.emulator.updateConfig({ durations });

  // ---- row 4 under the rate limit, alternating with one cluster under the same limit ----
  resetEmulator(RATE_LIMIT);
  /** @type {Record<"one" | "fleet", Awaited<ReturnType<typeof upAndDestroy>>[]>} */
  const limited = { one: [], fleet: [] };
  for (let i = 0; i < rounds; i += 1) {
    /** @type {("one" | "fleet")[]} */
    const order = i % 2 === 0 ? ["fleet", "one"] : ["one", "fleet"];
    for (const name of order) {
      limited[name].push(await upAndDestroy(name, `4 up under rate limit, ${name === "fleet" ? fleet : 1}`));
    }
  }
  resetEmulator(null);

  const ms = (/** @type {{ ms: number }[]} */ rs) => rs.map((r) => r.ms);
  const lags = (/** @type {{ lagsS: number[] }[]} */ rs) => rs.flatMap((r) => r.lagsS);
  const lagSummary = (/** @type {number[]} */ xs) =>
    xs.length === 0
      ? null
      : { medianS: round(median(xs), 2), maxS: Math.max(...xs), minS: Math.min(...xs), samples: xs.length };
  return {
    provisioningS: provisioningMs / 1000,
    rounds,
    fleet,
    load: load.summary(),
    one: {
      ...paired(ms(runs.one), ms(runs.baseline)),
      failedRuns: runs.one.filter((r) => r.failed).length + runs.baseline.filter((r) => r.failed).length,
      lag: lagSummary(lags(runs.one)),
      requestsPerRun: median(runs.one.map((r) => r.requests)),
    },
    defaultInterval: {
      runs: defaultRuns.map((r) => ({
        provisioningS: r.provisioningS,
        upS: round(r.ms / 1000, 2),
        lagS: r.lagsS[0] ?? null,
        requests: r.requests,
      })),
      // The run whose provisioning is row 3's, against row 3's baseline.
      ratioToBaseline: round(defaultRuns[0].ms / median(ms(runs.baseline)), 3),
      lag: lagSummary(lags(defaultRuns)),
    },
    fleetVsOne: {
      ...paired(ms(runs.fleet), ms(runs.one)),
      lag: lagSummary(lags(runs.fleet)),
      requestsPerRun: median(runs.fleet.map((r) => r.requests)),
      throttled: runs.fleet.map((r) => r.throttled),
      failedRuns: runs.fleet.filter((r) => r.failed).length + runs.one.filter((r) => r.failed).length,
      errors: runs.fleet.flatMap((r) => r.errors),
    },
    rateLimited: {
      limit: { ...RATE_LIMIT, retryAfterSeconds: RETRY_AFTER_S },
      ...paired(ms(limited.fleet), ms(limited.one)),
      throttledFleet: limited.fleet.map((r) => r.throttled),
      requestsFleet: limited.fleet.map((r) => r.requests),
      throttledOne: limited.one.map((r) => r.throttled),
      failedRuns: limited.fleet.map((r) => r.failed),
      failedResources: limited.fleet.map((r) => r.errors.length),
      errors: limited.fleet.flatMap((r) => r.errors),
      lag: lagSummary(lags(limited.fleet)),
    },
  };
}
