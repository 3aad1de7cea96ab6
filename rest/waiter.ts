/**
 * Waiting for asynchronous work (api-notes: "There is no operation endpoint. Completion is observed by
 * polling GET and reading `status.state`").
 */
import { VendorApiError, isVendorApiError } from "./errors";

/** Errors after which polling again later can succeed: retryable failures and exhausted call deadlines. */
function isTransientError(error: unknown): boolean {
  return (
    isVendorApiError(error) &&
    (error.retryable || error.kind === "deadline" || error.kind === "network" || error.kind === "timeout")
  );
}

/** The verdict on one observation of a resource. */
export type WaitVerdict =
  { kind: "done" } | { kind: "pending"; state: string } | { kind: "failed"; reason: string };

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
   * Sleep this long before the first poll. Right after a mutating call the state is already known (the
   * create answered `InCreation`) or not yet visible (a PUT answers before the service shows `Updating`),
   * so polling at once costs a call and can even observe the state from before the change.
   */
  firstPollAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export const SETTLED_STATES: ReadonlySet<string> = new Set(["Active", "Running", "Used", "NotUsed"]);
export const TRANSITIONAL_STATES: ReadonlySet<string> = new Set([
  "InCreation",
  "Creating",
  "Provisioning",
  "Updating",
  "Deleting",
]);
export const FAILURE_STATES: ReadonlySet<string> = new Set(["Failed", "Error", "Disabled"]);

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

/** Verdict for "wait until settled": settled states are done, failure states fail, the rest is pending. */
export function classifyState(status: StatusLike | null | undefined): WaitVerdict {
  const state = status?.state ?? "Unknown";
  if (SETTLED_STATES.has(state)) return { kind: "done" };
  // `Deleted` is terminal (api-notes): waiting for it to settle would only run out the deadline.
  if (FAILURE_STATES.has(state) || state === "Deleted")
    return { kind: "failed", reason: failureReasonOf(status) };
  return { kind: "pending", state };
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function formatElapsed(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

/**
 * Polls `observe` until `judge` says done (returns the last observation) or failed (throws a `failed`
 * error with the service's reason), or the deadline passes (throws a `deadline` error naming the last
 * state). Errors of `observe` itself propagate: the HTTP layer already retried them within its deadline.
 */
export async function waitFor<T>(
  observe: () => Promise<T>,
  judge: (observation: T) => WaitVerdict,
  options: WaitOptions,
): Promise<T> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const heartbeat = options.heartbeatMs ?? 60_000;
  const started = now();
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
    let verdict: WaitVerdict;
    let observation: T | undefined;
    lastPollError = undefined;
    nextWaitAtLeast = 0;
    try {
      observation = await observe();
      verdict = judge(observation);
    } catch (error) {
      // A poll that exhausted its own retries (a long throttling, an outage) does not end a wait that has
      // time left: it counts as "still waiting" until the wait's deadline. Permanent errors end it.
      if (!isTransientError(error)) throw error;
      verdict = { kind: "pending", state: "unreachable" };
      lastPollError = (error as Error).message;
      // The service asked for a pause (429 Retry-After): the next poll honours it, across calls too.
      nextWaitAtLeast = (error as VendorApiError).retryAfterMs ?? 0;
    }
    if (verdict.kind === "done") {
      if (lastState !== undefined) {
        options.onProgress?.(`${options.what} is ${options.target} after ${formatElapsed(now() - started)}`);
      }
      return observation as T;
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
    if (verdict.state !== lastState || t - lastLine >= heartbeat) {
      options.onProgress?.(
        `${options.what}: ${verdict.state}, waiting for ${options.target} (${formatElapsed(t - started)} elapsed)`,
      );
      lastState = verdict.state;
      lastLine = t;
    }
    const wait = Math.min(Math.max(options.intervalMs, nextWaitAtLeast), options.deadline - t);
    if (wait <= 0) {
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
