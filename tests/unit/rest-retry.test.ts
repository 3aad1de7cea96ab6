/** The retry schedule of the HTTP choke point: full-jitter backoff and `Retry-After`. */
import fc from "fast-check";
import {
  DEFAULT_RETRY_POLICY,
  NOT_SENT_ERROR_CODES,
  RATE_LIMITED_STATUS,
  RETRYABLE_STATUSES,
  SAFE_FOR_CREATE_STATUSES,
  backoffDelay,
  parseRetryAfter,
  retryDelay,
  type RetryPolicy,
} from "../../rest/retry";
import { scriptedRandom } from "./support/fake-time";

const policy: RetryPolicy = {
  baseDelayMs: 250,
  maxDelayMs: 15_000,
  maxRetryAfterMs: 60_000,
  maxAttempts: 10,
  retryAfterJitterMs: 1_000,
};
const noRandom = () => {
  throw new Error("random must not be called");
};

describe("backoffDelay", () => {
  it.each([
    // retry n: ceiling min(15000, 250 * 2^n); random 0.5 gives half of it.
    [0, 250, 125],
    [1, 500, 250],
    [2, 1_000, 500],
    [3, 2_000, 1_000],
    [4, 4_000, 2_000],
    [5, 8_000, 4_000],
    [6, 15_000, 7_500],
    [7, 15_000, 7_500],
    [30, 15_000, 7_500],
  ])("retry %i has ceiling %i, so random 0.5 waits %i ms", (retry, ceiling, expected) => {
    expect(backoffDelay(retry, policy, () => 0.5)).toBe(expected);
    expect(backoffDelay(retry, policy, () => 0)).toBe(0);
    expect(backoffDelay(retry, policy, () => 0.999999)).toBe(ceiling - 1);
  });

  it("follows a scripted random sequence exactly", () => {
    const random = scriptedRandom(0.1, 0.9, 0.5, 0.25, 0.75, 0.999, 0.3, 0.6);
    const schedule = [0, 1, 2, 3, 4, 5, 6, 7].map((retry) => backoffDelay(retry, policy, random));
    expect(schedule).toEqual([25, 450, 500, 500, 3_000, 7_992, 4_500, 9_000]);
  });

  it("stays a whole number of ms in [0, min(max, base * 2^n)) for every retry and random value", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        (retry, r, base, max) => {
          const p = { ...policy, baseDelayMs: base, maxDelayMs: max };
          const delay = backoffDelay(retry, p, () => r);
          const ceiling = Math.min(max, base * 2 ** retry);
          expect(Number.isInteger(delay)).toBe(true);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThan(ceiling);
        },
      ),
    );
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");

  it.each([
    ["120", 120_000],
    ["0", 0],
    ["1.5", 1_500],
    ["0.0004", 0],
    [" 3 ", 3_000],
  ])("reads delta-seconds %j as %i ms", (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });

  it.each([
    ["Wed, 21 Oct 2015 07:28:30 GMT", 30_000],
    ["Wed, 21 Oct 2015 07:30:00 GMT", 120_000],
    ["Wednesday, 21-Oct-15 07:28:05 GMT", 5_000],
    // A date in the past means "now", never a negative wait.
    ["Wed, 21 Oct 2015 07:00:00 GMT", 0],
  ])("reads the HTTP date %j relative to now as %i ms", (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });

  it.each([["soon"], ["-1"], ["1 2"], ["5s"], ["1e3"], ["Wed, garbage"], [""], ["   "]])(
    "ignores the unreadable header %j",
    (header) => {
      expect(parseRetryAfter(header, now)).toBeUndefined();
    },
  );

  it("ignores an absent header", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe("retryDelay", () => {
  it("waits the server's Retry-After plus a jitter in [0, retryAfterJitterMs)", () => {
    expect(retryDelay(3, 2_000, policy, () => 0)).toBe(2_000);
    expect(retryDelay(3, 2_000, policy, () => 0.5)).toBe(2_500);
    expect(retryDelay(3, 2_000, policy, () => 0.999999)).toBe(2_999);
    expect(retryDelay(0, 0, policy, () => 0.25)).toBe(250);
  });

  it("spreads callers told the same Retry-After over the jitter window", () => {
    const random = scriptedRandom(0.1, 0.9, 0.5, 0.25);
    expect([0, 1, 2, 3].map((retry) => retryDelay(retry, 1_000, policy, random))).toEqual([
      1_100, 1_900, 1_500, 1_250,
    ]);
  });

  it("waits exactly the Retry-After without drawing a random number when the jitter is 0", () => {
    const exact = { ...policy, retryAfterJitterMs: 0 };
    expect(retryDelay(3, 2_000, exact, noRandom)).toBe(2_000);
    expect(retryDelay(0, 0, exact, noRandom)).toBe(0);
  });

  it("cuts a Retry-After longer than maxRetryAfterMs to the cap before adding the jitter", () => {
    expect(retryDelay(0, 120_000, policy, () => 0)).toBe(60_000);
    expect(retryDelay(0, 120_000, policy, () => 0.5)).toBe(60_500);
    expect(retryDelay(0, 60_001, { ...policy, retryAfterJitterMs: 0 }, noRandom)).toBe(60_000);
  });

  it("falls back to the backoff of the retry number without Retry-After", () => {
    expect(retryDelay(2, undefined, policy, () => 0.5)).toBe(500);
    expect(retryDelay(9, undefined, policy, () => 0.5)).toBe(7_500);
  });
});

describe("retry tables", () => {
  it("retries 429 and the 5xx gateway and overload statuses only", () => {
    expect([...RETRYABLE_STATUSES].sort()).toEqual([429, 500, 502, 503, 504]);
  });

  it("counts only 429 as the rate limit, which maxAttempts does not bound", () => {
    expect(RATE_LIMITED_STATUS).toBe(429);
  });

  it("re-sends a create only after 429, the one answer that proves it was not processed", () => {
    expect([...SAFE_FOR_CREATE_STATUSES]).toEqual([429]);
  });

  it("treats refused and unresolvable connections as not sent", () => {
    expect([...NOT_SENT_ERROR_CODES].sort()).toEqual(["EAI_AGAIN", "ECONNREFUSED", "ENOTFOUND"]);
  });

  it("defaults to 250 ms base, 15 s ceiling, 60 s Retry-After cap, 10 attempts and 1 s of jitter", () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({
      baseDelayMs: 250,
      maxDelayMs: 15_000,
      maxRetryAfterMs: 60_000,
      maxAttempts: 10,
      retryAfterJitterMs: 1_000,
    });
  });
});
