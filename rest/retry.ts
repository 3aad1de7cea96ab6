/**
 * Retry schedule of the HTTP choke point: full-jitter exponential backoff ("Exponential Backoff And
 * Jitter", AWS architecture blog), with `Retry-After` honoured up to a cap and a little jitter added on top
 * of it. Pure functions, so the schedule is tested exactly with a seeded random source.
 */

export interface RetryPolicy {
  /** First backoff ceiling in ms; attempt n waits a random time in [0, min(maxDelayMs, baseDelayMs * 2^n)). */
  baseDelayMs: number;
  /** Largest backoff ceiling in ms. */
  maxDelayMs: number;
  /** Largest `Retry-After` honoured in ms; a longer one is cut to this. */
  maxRetryAfterMs: number;
  /**
   * Attempts per call including the first; the call's deadline may end it earlier. A rate-limit answer
   * (429) does not count: the service says the request was not processed, so it is repeated until the
   * call's deadline however many times the limit is hit (50 clusters created at once under a limit of
   * 100 requests per second hit it more than 10 times each).
   */
  maxAttempts: number;
  /**
   * Upper bound in ms of a random delay added to each `Retry-After` wait. Without it, every caller limited
   * in the same second is told the same `Retry-After` and comes back in the same instant, to be limited
   * again together.
   */
  retryAfterJitterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 250,
  maxDelayMs: 15_000,
  maxRetryAfterMs: 60_000,
  maxAttempts: 10,
  retryAfterJitterMs: 1_000,
};

/**
 * Statuses worth another attempt: "not processed, try again" (429), or a gateway or overload fault (5xx),
 * which an idempotent request may repeat but a create may not (`SAFE_FOR_CREATE_STATUSES`).
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** The rate-limit status: retried until the call's deadline, outside `maxAttempts`. */
export const RATE_LIMITED_STATUS = 429;

/**
 * Statuses after which a non-idempotent request (POST create) is known not to have been processed, so it can
 * be sent again without risking a duplicate: only the rate-limit answer (429). Every 5xx, 503 included, is
 * thrown as ambiguous instead, because the published interface does not say what 503 means and a gateway
 * may answer it after the service processed the request (api-notes "Errors": a create never takes over what
 * is not its own).
 */
export const SAFE_FOR_CREATE_STATUSES: ReadonlySet<number> = new Set([429]);

/** Connection errors that happen before a request reaches the service. */
export const NOT_SENT_ERROR_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/** Full-jitter backoff for the given retry number (0 for the first retry). */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/**
 * Parses a `Retry-After` header: delta-seconds or an HTTP date. Returns milliseconds, or undefined when the
 * header is absent or unreadable.
 */
export function parseRetryAfter(header: string | undefined | null, nowMs: number): number | undefined {
  if (header === undefined || header === null) return undefined;
  const text = String(header).trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Every HTTP-date form starts with a day name (RFC 9110 §5.6.7); `Date.parse` alone would read "-1" or
  // "1 2" as dates in 2001 and turn garbage into "retry now".
  if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * The wait before the next attempt: the server's `Retry-After` (capped) plus a random jitter in
 * [0, retryAfterJitterMs) when given, else the backoff.
 */
export function retryDelay(
  retry: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random: () => number,
): number {
  if (retryAfterMs !== undefined) {
    const jitter = policy.retryAfterJitterMs > 0 ? Math.floor(random() * policy.retryAfterJitterMs) : 0;
    return Math.min(retryAfterMs, policy.maxRetryAfterMs) + jitter;
  }
  return backoffDelay(retry, policy, random);
}
