/**
 * Waiting for asynchronous work (api-notes: "There is no operation endpoint. Completion is observed by
 * polling GET and reading `status.state`").
 */
import { VendorApiError, isVendorApiError } from "./errors";
import { SETTING_SOURCES } from "./settings";
import { STATE_CLASSES, type StateClass } from "./states";

/** Errors after which polling again later can succeed: retryable failures and exhausted call deadlines. */
function isTransientError(error: unknown): error is VendorApiError {
  return (
    isVendorApiError(error) &&
    (error.retryable || error.kind === "deadline" || error.kind === "network" || error.kind === "timeout")
  );
}

/**
 * The verdict on one observation of a resource. `unknown`: a state the provider cannot judge (neither in the
 * api-notes lists nor in the `vendor:stateNames` setting); the wait goes on, for `unknownStateTimeoutMs` at most.
 */
export type WaitVerdict =
  | { kind: "done" }
  | { kind: "pending"; state: string }
  | { kind: "unknown"; state: string }
  | { kind: "failed"; reason: string };

export interface WaitOptions {
  /** Names the wait in progress lines and errors, e.g. `Kaas "prod" (k-1)`. */
  what: string;
  /** What the wait waits for, e.g. `Active` or `deletion`. */
  target: string;
  method: string;
  path: string;
  /** Absolute deadline (epoch ms). */
  deadline: number;
  /** Time between polls. */
  intervalMs: number;
  /** Progress lines: each state change, and a heartbeat every `heartbeatMs`. */
  onProgress?: (line: string) => void;
  heartbeatMs?: number;
  /**
   * How long the resource may stay in states the provider does not know (`unknown` verdicts) before the wait
   * ends with an error naming the state and the setting that tells the provider what it means. Default
   * {@link DEFAULT_UNKNOWN_STATE_TIMEOUT_MS}.
   */
  unknownStateTimeoutMs?: number;
  /**
   * Sleep this long before the first poll. Right after a mutating call the state is already known (the
   * create answered `InCreation`) or not yet visible (a PUT answers before the service shows `Updating`),
   * so polling at once costs a call and can even observe the state from before the change.
   */
  firstPollAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Default time a wait gives a state the provider does not know: 5 minutes, a fraction of a create timeout. */
export const DEFAULT_UNKNOWN_STATE_TIMEOUT_MS = 300_000;

export { STATE_CLASSES, type StateClass } from "./states";

/**
 * The states seen on the wire (api-notes "Conventions on the wire"), by class, in the service's spelling. The
 * interface itself does not list them, so they are compared case-insensitively (`ACTIVE` is `Active`) and a
 * user can name more with the `vendor:stateNames` setting ({@link stateNamesOf}).
 */
export const KNOWN_STATES: { readonly [C in StateClass]: readonly string[] } = {
  settled: ["Active", "Running", "Used", "NotUsed"],
  transitional: ["InCreation", "Creating", "Provisioning", "Updating"],
  deleting: ["Deleting"],
  deleted: ["Deleted"],
  failed: ["Failed", "Error", "Disabled"],
};

/** The settled names of {@link KNOWN_STATES}, in the service's spelling. */
export const SETTLED_STATES: ReadonlySet<string> = new Set(KNOWN_STATES.settled);
/** Work in progress, deletion included: the states in which the service refuses a mutation as busy. */
export const TRANSITIONAL_STATES: ReadonlySet<string> = new Set([
  ...KNOWN_STATES.transitional,
  ...KNOWN_STATES.deleting,
]);
/** The failure names of {@link KNOWN_STATES}, in the service's spelling. */
export const FAILURE_STATES: ReadonlySet<string> = new Set(KNOWN_STATES.failed);

/** State names by class, keyed by the lower-cased name: the lists above plus a user's `vendor:stateNames`. */
export type StateNames = ReadonlyMap<string, StateClass>;

/**
 * The state names of the api-notes, with `extra` (the `vendor:stateNames` setting, already validated) added;
 * an extra name overrides a listed one of the same spelling in any case.
 */
export function stateNamesOf(extra: Readonly<Record<string, StateClass>> = {}): StateNames {
  const names = new Map<string, StateClass>();
  for (const cls of STATE_CLASSES) for (const name of KNOWN_STATES[cls]) names.set(name.toLowerCase(), cls);
  for (const [name, cls] of Object.entries(extra)) names.set(name.trim().toLowerCase(), cls);
  return names;
}

/** The api-notes' state names alone: what a client without the `vendor:stateNames` setting knows. */
export const DEFAULT_STATE_NAMES: StateNames = stateNamesOf();

/**
 * The one classification of a state, compared case-insensitively: its class, or `unknown` for a state
 * neither the api-notes nor `names` list, and for a missing state. Every caller that judges a state (the
 * waiter's verdicts, the busy probe, the creation-tag search, delete) goes through it.
 */
export function stateClassOf(
  state: string | null | undefined,
  names: StateNames = DEFAULT_STATE_NAMES,
): StateClass | "unknown" {
  return (state && names.get(state.trim().toLowerCase())) || "unknown";
}

/** True for a state of work in progress, deletion included (`transitional` or `deleting`). */
export function isBusyState(
  state: string | null | undefined,
  names: StateNames = DEFAULT_STATE_NAMES,
): boolean {
  const cls = stateClassOf(state, names);
  return cls === "transitional" || cls === "deleting";
}

/** Status fields read by `classifyState`. */
export interface StatusLike {
  state?: string | null;
  failureReason?: string | null;
  error?: { reason?: string | null; message?: string | null } | null;
}

/** The service's reason for a failure state, from `failureReason` or `error.{reason,message}`. */
export function failureReasonOf(status: StatusLike | null | undefined): string {
  const parts = [status?.failureReason, status?.error?.reason, status?.error?.message].filter(
    (p): p is string => typeof p === "string" && p.trim() !== "",
  );
  return [...new Set(parts)].join(": ") || `state ${status?.state ?? "unknown"}`;
}

/**
 * Verdict for "wait until settled": settled states are done, failure states fail, transitional ones are
 * pending, and a state `names` does not list is `unknown` (waited on for a while, see `waitFor`). A missing
 * state is pending `Unknown`: the answer said nothing, so there is no name to ask the user about.
 */
export function classifyState(
  status: StatusLike | null | undefined,
  names: StateNames = DEFAULT_STATE_NAMES,
): WaitVerdict {
  const state = status?.state;
  if (state === undefined || state === null || state.trim() === "")
    return { kind: "pending", state: "Unknown" };
  switch (stateClassOf(state, names)) {
    case "settled":
      return { kind: "done" };
    // `Deleted` is terminal (api-notes): waiting for it to settle would only run out the deadline.
    case "failed":
    case "deleted":
      return { kind: "failed", reason: failureReasonOf(status) };
    case "transitional":
    case "deleting":
      return { kind: "pending", state };
    case "unknown":
      return { kind: "unknown", state };
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function formatElapsed(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

/** `vendor:stateNames (VENDOR_STATE_NAMES)`: how messages name a setting, config key then variable. */
const settingName = (name: keyof typeof SETTING_SOURCES): string =>
  `${SETTING_SOURCES[name][0]} (${SETTING_SOURCES[name][1]})`;

/** `state "Ready"` or `states "Starting", "Ready"`. */
const namedStates = (states: readonly string[]): string =>
  `state${states.length > 1 ? "s" : ""} ${states.map((s) => JSON.stringify(s)).join(", ")}`;

/**
 * The end of a wait that met only states it does not know for too long: names them, and says how to tell
 * the provider what they mean (the interface does not list the states; api-notes "States").
 */
function unknownStateError(options: WaitOptions, states: readonly string[], forMs: number): VendorApiError {
  const last = states[states.length - 1];
  return new VendorApiError({
    kind: "failed",
    method: options.method,
    path: options.path,
    detail:
      `${options.what} stayed in ${namedStates(states)}, which this provider does not know, for ` +
      `${formatElapsed(forMs)} while waiting for ${options.target}. Tell it what ${JSON.stringify(last)} means ` +
      `with the setting ${settingName("stateNames")}, e.g. {${JSON.stringify(last)}: "settled"}, mapping each ` +
      `state name to settled, transitional, deleting, deleted or failed; ${settingName("unknownStateTimeoutMs")} ` +
      "sets how long an unknown state is waited on.",
  });
}

/**
 * Polls `observe` until `judge` says done (returns the last observation) or failed (throws a `failed`
 * error with the service's reason), or the deadline passes (throws a `deadline` error naming the last
 * state). A state the judge does not know (`unknown`) is named in a progress line at once and waited on
 * for `unknownStateTimeoutMs` at most, then the wait throws a `failed` error naming it and the setting
 * that tells the provider what it means. Errors of `observe` itself propagate: the HTTP layer already
 * retried them within its deadline.
 */
export function waitFor<T>(
  observe: () => Promise<T>,
  judge: (observation: T) => WaitVerdict,
  options: WaitOptions,
): Promise<T> {
  return waitForVerdict(observe, (observation) => judged(observation, judge(observation)), options);
}

/** A verdict whose `done` carries what the wait answers: the observation judged, as the judge typed it. */
export type JudgedVerdict<S> = Exclude<WaitVerdict, { kind: "done" }> | { kind: "done"; observation: S };

/** `verdict` on `observation`, a `done` carrying it. */
export const judged = <S>(observation: S, verdict: WaitVerdict): JudgedVerdict<S> =>
  verdict.kind === "done" ? { kind: "done", observation } : verdict;

/**
 * `waitFor` with a judge whose `done` hands the wait its answer (`judged`), so that a judge that refuses some
 * observations (a wait to settle fails on a gone resource) answers the others' type.
 */
export async function waitForVerdict<T, S>(
  observe: () => Promise<T>,
  judge: (observation: T) => JudgedVerdict<S>,
  options: WaitOptions,
): Promise<S> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const heartbeat = options.heartbeatMs ?? 60_000;
  const unknownStateTimeout = options.unknownStateTimeoutMs ?? DEFAULT_UNKNOWN_STATE_TIMEOUT_MS;
  const started = now();
  // Since when every observation showed a state the judge does not know (unreachable polls in between do
  // not count either way), and the names seen meanwhile.
  let unknownSince: number | undefined;
  let unknownStates: string[] = [];
  let lastState: string | undefined;
  let lastLine = started;
  let lastPollError: string | undefined;
  let nextWaitAtLeast = 0;
  const firstWait = Math.min(options.firstPollAfterMs ?? 0, options.deadline - started);
  if (firstWait > 0) {
    // The state is known to be moving: the first observation is reported, and so is the end.
    lastState = "";
    await sleep(firstWait);
  }
  for (;;) {
    // A `done` verdict carries the observation it was given, which the wait answers.
    let verdict: JudgedVerdict<S>;
    let unreachable = false;
    lastPollError = undefined;
    nextWaitAtLeast = 0;
    try {
      verdict = judge(await observe());
    } catch (error) {
      // A poll that exhausted its own retries (a long throttling, an outage) does not end a wait that has
      // time left: it counts as "still waiting" until the wait's deadline. Permanent errors end it.
      if (!isTransientError(error)) throw error;
      verdict = { kind: "pending", state: "unreachable" };
      unreachable = true;
      lastPollError = error.message;
      // The service asked for a pause (429 Retry-After): the next poll honours it, across calls too.
      nextWaitAtLeast = error.retryAfterMs ?? 0;
    }
    if (verdict.kind === "done") {
      if (lastState !== undefined) {
        options.onProgress?.(`${options.what} is ${options.target} after ${formatElapsed(now() - started)}`);
      }
      return verdict.observation;
    }
    if (verdict.kind === "failed") {
      throw new VendorApiError({
        kind: "failed",
        method: options.method,
        path: options.path,
        detail: `${options.what} failed while waiting for ${options.target}: ${verdict.reason}`,
      });
    }
    const t = now();
    if (verdict.kind === "unknown") {
      unknownSince ??= t;
      if (!unknownStates.includes(verdict.state)) unknownStates = [...unknownStates, verdict.state];
      if (t - unknownSince >= unknownStateTimeout) {
        throw unknownStateError(options, unknownStates, t - unknownSince);
      }
    } else if (!unreachable) {
      unknownSince = undefined;
      unknownStates = [];
    }
    if (verdict.state !== lastState || t - lastLine >= heartbeat) {
      const elapsed = `(${formatElapsed(t - started)} elapsed)`;
      options.onProgress?.(
        verdict.kind === "unknown"
          ? `${options.what} is in state ${JSON.stringify(verdict.state)}, which this provider does not know ` +
              `(${SETTING_SOURCES.stateNames[0]}); waiting for ${options.target}, giving up in ` +
              `${formatElapsed((unknownSince ?? t) + unknownStateTimeout - t)} ${elapsed}`
          : `${options.what}: ${verdict.state}, waiting for ${options.target} ${elapsed}`,
      );
      lastState = verdict.state;
      lastLine = t;
    }
    const untilDeadline = Math.min(Math.max(options.intervalMs, nextWaitAtLeast), options.deadline - t);
    // In unknown states, the next poll comes no later than the end of their time, so the error is on time.
    const wait =
      verdict.kind === "unknown" && unknownSince !== undefined
        ? Math.min(untilDeadline, unknownSince + unknownStateTimeout - t)
        : untilDeadline;
    if (untilDeadline <= 0) {
      throw new VendorApiError({
        kind: "deadline",
        method: options.method,
        path: options.path,
        detail: `${options.what} did not reach ${options.target} within ${formatElapsed(options.deadline - started)} (last state ${verdict.state}${lastPollError ? `: ${lastPollError}` : ""})`,
      });
    }
    await sleep(wait);
  }
}
