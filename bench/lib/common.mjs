// @ts-check
/**
 * Shared pieces of the benchmark: statistics, a fake clock, the emulator and provider set-up, silencing of
 * the providers' progress lines, and the inputs of every kind.
 */
import console from "node:console";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { FAST_DURATIONS, startEmulator } from "../../dist/emulator/index.js";
import { configure } from "../../dist/provider/index.js";
import { resetClients } from "../../dist/provider/common/context.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BENCH = path.join(ROOT, "bench");
export const PROJECT = "p-bench";
export const TOKEN = "bench-token-7c41";
export const KINDS = /** @type {const} */ (["Kaas", "KaasBackup", "Registry", "VolumeAttachment"]);
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;

// ---- statistics ----

/** @param {number[]} xs */
export const sum = (xs) => xs.reduce((a, b) => a + b, 0);
/** @param {number[]} xs */
export const mean = (xs) => (xs.length === 0 ? NaN : sum(xs) / xs.length);
/** @param {number[]} xs */
export const max = (xs) => xs.reduce((a, b) => Math.max(a, b), -Infinity);
/** @param {number[]} xs */
export const min = (xs) => xs.reduce((a, b) => Math.min(a, b), Infinity);
/** @param {number[]} xs @param {number} p percentile, 0-100 */
export function percentile(xs, p) {
  const sorted = [...xs].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}
/** @param {number[]} xs */
export const median = (xs) => percentile(xs, 50);

/** Rounds to `digits` decimals (numbers in the JSON stay readable). */
export const round = (x, digits = 2) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : x);

// ---- fake clock ----

/**
 * A clock that only moves when someone sleeps on it: `sleep(ms)` advances time by `ms` at once. Handed to
 * the waiter and the HTTP client (`now`/`sleep` options) so minutes of polling run in milliseconds.
 */
export class FakeClock {
  /** @param {number} start epoch ms */
  constructor(start = 0) {
    this.t = start;
    /** @type {((t: number, ms: number) => void)[]} called after every sleep with the new time and the step */
    this.onAdvance = [];
    this.now = () => this.t;
    /** @param {number} ms */
    this.sleep = async (ms) => {
      const step = Math.max(0, ms);
      this.t += step;
      for (const hook of this.onAdvance) hook(this.t, step);
    };
  }
}

// ---- console ----

/**
 * Runs `work` with `console.log` captured: the providers print progress lines for the user (the engine
 * shows them), which would drown the benchmark's output.
 * @template T
 * @param {() => Promise<T>} work
 * @returns {Promise<{ result: T; lines: string[] }>}
 */
export async function quietly(work) {
  const original = console.log;
  /** @type {string[]} */
  const lines = [];
  console.log = (...args) => {
    lines.push(args.map(String).join(" "));
  };
  try {
    return { result: await work(), lines };
  } finally {
    console.log = original;
  }
}

// ---- emulator and providers ----

/**
 * Stack configuration of the providers against `url`.
 * @param {string} url
 * @param {Record<string, string>} extra
 */
export function stackConfig(url, extra = {}) {
  /** @type {Record<string, string>} */
  const config = {
    "vendor:baseUrl": url,
    "vendor:token": TOKEN,
    "vendor:projectId": PROJECT,
    "vendor:requestTimeoutMs": "5000",
    "vendor:callDeadlineMs": "20000",
    ...extra,
  };
  return { get: (/** @type {string} */ key) => config[key] };
}

/**
 * Starts an emulator with fast durations and configures the provider module of this process against it
 * (as the engine's `configure` does), polling every 20 ms.
 * @param {import("../../dist/emulator/index.js").StartEmulatorOptions} options
 */
export async function startProviders(options = {}) {
  const running = await startEmulator({ tokens: [TOKEN], durations: FAST_DURATIONS, ...options });
  configure(stackConfig(running.url, { "vendor:pollIntervalMs": "20" }));
  resetClients();
  return {
    running,
    async close() {
      configure(undefined);
      resetClients();
      await running.close();
    },
  };
}

/** @typedef {import("../../dist/provider/index.js").KindProvider} KindProvider */

/**
 * A kind's shell with its methods typed as always present (the shells implement all of them; the
 * `ResourceProvider` interface they satisfy declares them optional).
 * @param {unknown} shell
 * @returns {KindProvider}
 */
export const asProvider = (shell) => /** @type {KindProvider} */ (shell);

// ---- inputs of every kind, as a program declares them (before check) ----

/**
 * A cluster with `pools` node pools of 2 nodes (half of them autoscaling), room for volumes.
 * @param {string} name
 * @param {number} pools
 */
export function kaasArgs(name, pools = 2) {
  return {
    name,
    location: "ITBG-Bergamo",
    kubernetesVersion: "1.32.5",
    tags: ["team-a", "env-bench"],
    nodeCidr: { address: "10.10.0.0/16", name: `${name}-nodes` },
    nodePools: Array.from({ length: pools }, (_, i) =>
      i % 2 === 0
        ? { name: i === 0 ? "system" : `pool-${i}`, nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" }
        : {
            name: `pool-${i}`,
            nodes: 2,
            instance: "K8A16",
            dataCenter: "ITBG-2",
            autoscaling: true,
            minCount: 1,
            maxCount: 4,
          },
    ),
    maxCumulativeVolumeSize: 100,
    billingPeriod: "Month",
    creationScope: `bench/dev/${name}`,
  };
}

/** @param {string} kaasId @param {string} name */
export const backupArgs = (kaasId, name) => ({
  kaasId,
  name,
  location: "ITBG-Bergamo",
  type: "Full",
  retentionDays: 7,
  billingPeriod: "Month",
  creationScope: `bench/dev/${name}`,
});

/** @param {string} name @param {number} i */
export const registryArgs = (name, i) => ({
  name,
  location: "ITBG-Bergamo",
  adminUsername: "ops",
  size: "Small",
  billingPeriod: "Month",
  publicIpUri: `/projects/${PROJECT}/providers/Vendor.Network/elasticIps/ip-${i}`,
  creationScope: `bench/dev/${name}`,
});

/** @param {string} kaasId @param {string} nodeId @param {number} i */
export const attachmentArgs = (kaasId, nodeId, i) => ({
  kaasId,
  nodePoolName: "system",
  nodeId,
  volumeUri: `/projects/${PROJECT}/providers/Vendor.Storage/blockStorages/vol-${i}`,
  creationScope: `bench/dev/vol-${i}`,
});

/**
 * check + create through a kind's provider, as `pulumi up` does for a new resource.
 * @param {KindProvider} p
 * @param {Record<string, unknown>} args
 * @returns {Promise<{ id: string; inputs: Record<string, any>; outs: Record<string, any> }>}
 */
export async function checkAndCreate(p, args) {
  const { inputs, failures } = await p.check({}, args);
  if (failures.length > 0) throw new Error(`check failed: ${JSON.stringify(failures)}`);
  const { id, outs } = await p.create(inputs);
  return { id, inputs, outs };
}

/** Process-wide facts for the report. */
export function nodeVersion() {
  return process.version;
}
