// @ts-check
/**
 * Row 5: the waiter on a fake clock. Time 0 is the instant the create answered `InCreation`; the resource
 * becomes ready at `duration + offset`, with 20 offsets spread over one 10 s window (0, 0.5, ... 9.5 s) so
 * that the phase between the polls and the ready time varies. A GET takes no time on the fake clock.
 *
 * - ours: the package's own `VendorContainerClient.waitUntilSettled` with the default settings
 *   (poll interval from `DEFAULT_SETTINGS`, first poll one interval after the create: `afterMutation`);
 * - fixed 10 s: the same `waitFor` with a first poll at 0 s after the create, then every 10 s;
 * - doubling: a first poll at 0 s, then waits of 200 ms doubling up to 10 s (Terraform's defaults).
 *
 * Two runs go through the whole stack instead, against the emulator running on the same fake clock (its
 * `realNow` option): `KaasProvider.create` with an injected client, counting the GETs the emulator received.
 * One cross-checks the simulation; the other makes the service answer 429 with `Retry-After: 30` to every
 * GET for a while and shows when ours calls again.
 */
import { FAST_DURATIONS, startEmulator } from "../../dist/emulator/index.js";
import { KaasProvider } from "../../dist/provider/index.js";
import { VendorContainerClient } from "../../dist/rest/client.js";
import { DEFAULT_SETTINGS, resolveSettings } from "../../dist/rest/settings.js";
import { classifyState, waitFor } from "../../dist/rest/waiter.js";
import {
  FakeClock,
  MINUTE,
  PROJECT,
  SECOND,
  TOKEN,
  checkAndCreate,
  kaasArgs,
  max,
  mean,
  min,
  quietly,
  round,
} from "./common.mjs";

export const DURATIONS_MIN = [1, 5, 15, 30];
export const OFFSETS_MS = Array.from({ length: 20 }, (_, i) => i * 500);
const FIXED_INTERVAL_MS = 10 * SECOND;
const DOUBLING_START_MS = 200;
const DOUBLING_CAP_MS = 10 * SECOND;
const WAIT_DEADLINE_MS = 3 * 60 * MINUTE;

/** Settings of our client: the package defaults, nothing from the environment. */
function defaultSettings(baseUrl = "http://127.0.0.1:9") {
  /** @type {Record<string, string>} */
  const config = { "vendor:baseUrl": baseUrl, "vendor:token": TOKEN, "vendor:projectId": PROJECT };
  return resolveSettings((key) => config[key], {});
}

/**
 * A resource that is ready from `readyAt` on, observed on `clock`; `throttleUntil` makes every observation
 * before that time a 429 (for the baselines, which poll on regardless).
 * @param {FakeClock} clock
 * @param {number} readyAt
 */
function fakeResource(clock, readyAt) {
  /** @type {number[]} */
  const times = [];
  return {
    times,
    observe: async () => {
      times.push(clock.t);
      return { status: { state: clock.t >= readyAt ? "Active" : "InCreation" } };
    },
  };
}

/** @typedef {{ calls: number; lagMs: number; pollTimes: number[] }} Run */

/** @param {number} readyAt @returns {Promise<Run>} */
async function ours(readyAt) {
  const clock = new FakeClock(0);
  const client = new VendorContainerClient(defaultSettings(), { now: clock.now, sleep: clock.sleep });
  const resource = fakeResource(clock, readyAt);
  await client.waitUntilSettled(resource.observe, {
    what: "Kaas",
    path: "/kaas/k",
    deadline: WAIT_DEADLINE_MS,
    afterMutation: true,
  });
  return { calls: resource.times.length, lagMs: clock.t - readyAt, pollTimes: resource.times };
}

/** @param {number} readyAt @returns {Promise<Run>} */
async function fixed(readyAt) {
  const clock = new FakeClock(0);
  const resource = fakeResource(clock, readyAt);
  await waitFor(resource.observe, (o) => classifyState(o.status), {
    what: "Kaas",
    target: "Active",
    method: "GET",
    path: "/kaas/k",
    deadline: WAIT_DEADLINE_MS,
    intervalMs: FIXED_INTERVAL_MS,
    firstPollAfterMs: 0,
    now: clock.now,
    sleep: clock.sleep,
  });
  return { calls: resource.times.length, lagMs: clock.t - readyAt, pollTimes: resource.times };
}

/** @param {number} readyAt @returns {Promise<Run>} */
async function doubling(readyAt) {
  const clock = new FakeClock(0);
  const resource = fakeResource(clock, readyAt);
  let wait = DOUBLING_START_MS;
  for (;;) {
    const observed = await resource.observe();
    if (classifyState(observed.status).kind === "done") break;
    await clock.sleep(wait);
    wait = Math.min(wait * 2, DOUBLING_CAP_MS);
  }
  return { calls: resource.times.length, lagMs: clock.t - readyAt, pollTimes: resource.times };
}

/** @param {Run[]} runs */
function summarise(runs) {
  const calls = runs.map((r) => r.calls);
  const lags = runs.map((r) => r.lagMs);
  return {
    calls: { mean: round(mean(calls)), min: min(calls), max: max(calls) },
    lagS: {
      mean: round(mean(lags) / SECOND),
      max: round(max(lags) / SECOND),
      min: round(min(lags) / SECOND),
    },
    perOffset: runs.map((r) => ({ calls: r.calls, lagMs: r.lagMs })),
  };
}

async function simulate() {
  const schedules = { ours, fixed, doubling };
  return Promise.all(
    DURATIONS_MIN.map(async (minutes) => {
      /** @type {Record<string, Run[]>} */
      const runs = {};
      for (const [name, run] of Object.entries(schedules)) {
        runs[name] = [];
        for (const offset of OFFSETS_MS) runs[name].push(await run(minutes * MINUTE + offset));
      }
      // Paired: the same ready time for every schedule.
      const notMore = (/** @type {string} */ baseline) =>
        runs.ours.every((r, i) => r.calls <= runs[baseline][i].calls);
      return {
        minutes,
        ours: summarise(runs.ours),
        fixed: summarise(runs.fixed),
        doubling: summarise(runs.doubling),
        oursNeverMoreCallsThanFixed: notMore("fixed"),
        oursNeverMoreCallsThanDoubling: notMore("doubling"),
      };
    }),
  );
}

/**
 * `KaasProvider.create` against an emulator on the fake clock: provisioning takes `durationMs`; with
 * `throttleMs`, every GET is answered 429 with `Retry-After: 30` from the create's answer until `throttleMs`
 * after it.
 * @param {number} durationMs
 * @param {{ throttleMs?: number }} options
 */
async function endToEnd(durationMs, options = {}) {
  const clock = new FakeClock(Date.now());
  const running = await startEmulator({
    tokens: [TOKEN],
    durations: { ...FAST_DURATIONS, kaasCreateMs: durationMs },
    realNow: clock.now,
  });
  try {
    /** @type {{ atS: number; line: string }[]} */
    const retries = [];
    let createdAt = NaN;
    const client = new VendorContainerClient(defaultSettings(running.url), {
      now: clock.now,
      sleep: clock.sleep,
      onRetry: (line) => retries.push({ atS: round((clock.t - createdAt) / SECOND, 1), line }),
    });
    if (options.throttleMs !== undefined) {
      const throttleMs = options.throttleMs;
      let state = "off";
      // The first sleep is the waiter's, right after the create answered: the throttle starts there.
      clock.onAdvance.push((t, step) => {
        if (state === "off") {
          createdAt = t - step;
          running.emulator.setFaults({ errorRates: { 429: 1 }, retryAfterSeconds: 30, methods: ["GET"] });
          state = "on";
        }
        if (state === "on" && t - createdAt >= throttleMs) {
          running.emulator.setFaults({});
          state = "ended";
        }
      });
    }
    const kaas = new KaasProvider(() => client);
    const { result: outcome } = await quietly(() =>
      checkAndCreate(kaas, { ...kaasArgs("prod"), projectId: PROJECT }).then(
        (created) => ({ ok: true, id: created.id, error: undefined }),
        (error) => ({ ok: false, id: error?.id, error: String(error?.message ?? error).split("\n")[0] }),
      ),
    );
    const requests = running.emulator.requests().map((r) => ({ ...r, at: Date.parse(r.time) }));
    const post = requests.find((r) => r.method === "POST" && r.path.endsWith("/kaas"));
    createdAt = post ? post.at : NaN;
    const polls = requests.filter((r) => r.method === "GET" && /\/kaas\/[^/]+$/.test(r.path));
    const readyAt = createdAt + durationMs;
    const last = polls.at(-1);
    return {
      durationS: durationMs / SECOND,
      outcome,
      requests: requests.length,
      polls: polls.length,
      throttled: polls.filter((r) => r.status === 429).length,
      pollTimesS: polls.map((r) => round((r.at - createdAt) / SECOND, 1)),
      statuses: polls.map((r) => r.status),
      lagS: outcome.ok && last ? round((last.at - readyAt) / SECOND, 1) : null,
      retries: retries.map((r) => ({ ...r, atS: round(r.atS, 1) })),
    };
  } finally {
    await running.close();
  }
}

export async function measureWaiter() {
  const simulation = await simulate();

  // Cross-check: the provider's real create path polls as the simulation says.
  const crossCheck = [];
  for (const minutes of DURATIONS_MIN) {
    for (const offset of [0, 2500, 5000, 7500]) {
      const e2e = await endToEnd(minutes * MINUTE + offset);
      const sim = await ours(minutes * MINUTE + offset);
      crossCheck.push({
        minutes,
        offsetS: offset / SECOND,
        e2ePolls: e2e.polls,
        simPolls: sim.calls,
        e2eLagS: e2e.lagS,
        simLagS: round(sim.lagMs / SECOND, 1),
        e2eRequests: e2e.requests,
        matches: e2e.polls === sim.calls && e2e.lagS === round(sim.lagMs / SECOND, 1),
      });
    }
  }

  // Retry-After: provisioning 5 min; 429 + Retry-After: 30 to every GET for the first 90 s, then 5 min.
  const provisioningMs = 5 * MINUTE;
  const throttle = [];
  for (const throttleMs of [90 * SECOND, 5 * MINUTE]) {
    const run = await endToEnd(provisioningMs, { throttleMs });
    const inWindow = run.pollTimesS.filter((t) => t * SECOND < throttleMs);
    const gaps = inWindow.slice(1).map((t, i) => round(t - inWindow[i], 1));
    // What a poller that ignores Retry-After would send in the same window.
    const ignoring = (/** @type {number[]} */ times) => times.filter((t) => t < throttleMs).length;
    const fixedRun = await fixed(provisioningMs);
    const doublingRun = await doubling(provisioningMs);
    throttle.push({
      throttleS: throttleMs / SECOND,
      provisioningS: provisioningMs / SECOND,
      ...run,
      callsInWindow: inWindow.length,
      gapsInWindowS: gaps,
      ignoringRetryAfter: {
        fixedCallsInWindow: ignoring(fixedRun.pollTimes),
        doublingCallsInWindow: ignoring(doublingRun.pollTimes),
      },
    });
  }

  // Context for row 3 (not measurable here): the waiter's own detection lag on a 30 s provisioning.
  const thirtySeconds = [];
  for (const offset of OFFSETS_MS) thirtySeconds.push(await ours(30 * SECOND + offset));

  return {
    pollIntervalS: DEFAULT_SETTINGS.pollIntervalMs / SECOND,
    row3Context: { provisioningS: 30, ours: summarise(thirtySeconds) },
    offsetsS: OFFSETS_MS.map((o) => o / SECOND),
    simulation,
    crossCheck,
    throttle,
  };
}
