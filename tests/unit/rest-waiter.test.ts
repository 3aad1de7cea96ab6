/**
 * Waiting by polling `status.state` (api-notes: there is no operation endpoint). A fake clock makes every
 * poll, sleep and progress line exact.
 */
import {
  VendorApiError as VendorApiErrorClass,
  isVendorApiError,
  type VendorApiError,
} from "../../rest/errors";
import {
  DEFAULT_UNKNOWN_STATE_TIMEOUT_MS,
  FAILURE_STATES,
  KNOWN_STATES,
  SETTLED_STATES,
  TRANSITIONAL_STATES,
  classifyState,
  failureReasonOf,
  isBusyState,
  stateClassOf,
  stateNamesOf,
  waitFor,
  type StatusLike,
  type WaitOptions,
} from "../../rest/waiter";
import { fakeTime, type FakeTime } from "./support/fake-time";

interface Observation {
  status: StatusLike;
}

const at = (state: string, extra: Omit<StatusLike, "state"> = {}): Observation => ({
  status: { state, ...extra },
});

/** Answers `observations` in turn; `spend` ms of the fake clock pass during each poll. */
function observer(time: FakeTime, observations: Observation[], spend = 0) {
  let calls = 0;
  return jest.fn(async () => {
    const observation = observations[Math.min(calls++, observations.length - 1)];
    time.advance(spend);
    return observation;
  });
}

function setup(overrides: Partial<WaitOptions> = {}) {
  const time = fakeTime(0);
  const lines: string[] = [];
  const options: WaitOptions = {
    what: 'Kaas "prod" (k-1)',
    target: "Active",
    method: "GET",
    path: "/kaas/k-1",
    deadline: 1_800_000,
    intervalMs: 10_000,
    heartbeatMs: 60_000,
    onProgress: (line) => lines.push(line),
    sleep: time.sleep,
    now: time.now,
    ...overrides,
  };
  return { time, lines, options };
}

const judge = (o: Observation) => classifyState(o.status);

async function rejectionOf(promise: Promise<unknown>): Promise<VendorApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isVendorApiError(error)) throw new Error(`expected a VendorApiError, got ${String(error)}`);
  return error;
}

describe("waitFor", () => {
  it("returns the settled observation and reports each state change and the arrival", async () => {
    const { time, lines, options } = setup();
    const observations = [at("InCreation"), at("InCreation"), at("Creating"), at("Active")];
    const observe = observer(time, observations);

    const result = await waitFor(observe, judge, options);

    expect(result).toBe(observations[3]);
    expect(observe).toHaveBeenCalledTimes(4);
    expect(time.sleeps).toEqual([10_000, 10_000, 10_000]);
    expect(lines).toEqual([
      'Kaas "prod" (k-1): InCreation, waiting for Active (0s elapsed)',
      'Kaas "prod" (k-1): Creating, waiting for Active (20s elapsed)',
      'Kaas "prod" (k-1) is Active after 30s',
    ]);
  });

  it("returns at once, silently, when the first observation is settled", async () => {
    const { time, lines, options } = setup();
    const observe = observer(time, [at("Running")]);

    await waitFor(observe, judge, options);

    expect(observe).toHaveBeenCalledTimes(1);
    expect(time.sleeps).toEqual([]);
    expect(lines).toEqual([]);
  });

  it("repeats an unchanged state as a heartbeat every heartbeatMs", async () => {
    const { time, lines, options } = setup({ heartbeatMs: 30_000 });
    const observe = observer(time, [...Array(9).fill(at("InCreation")), at("Active")]);

    await waitFor(observe, judge, options);

    expect(observe).toHaveBeenCalledTimes(10);
    expect(time.sleeps).toEqual(Array(9).fill(10_000));
    expect(lines).toEqual([
      'Kaas "prod" (k-1): InCreation, waiting for Active (0s elapsed)',
      'Kaas "prod" (k-1): InCreation, waiting for Active (30s elapsed)',
      'Kaas "prod" (k-1): InCreation, waiting for Active (1m00s elapsed)',
      'Kaas "prod" (k-1) is Active after 1m30s',
    ]);
  });

  it("beats every 60 s by default", async () => {
    const { time, lines, options } = setup({ heartbeatMs: undefined });
    const observe = observer(time, [...Array(7).fill(at("Provisioning")), at("Used")]);

    await waitFor(observe, judge, options);

    expect(lines).toEqual([
      'Kaas "prod" (k-1): Provisioning, waiting for Active (0s elapsed)',
      'Kaas "prod" (k-1): Provisioning, waiting for Active (1m00s elapsed)',
      'Kaas "prod" (k-1) is Active after 1m10s',
    ]);
  });

  it("throws kind failed with the service's failureReason", async () => {
    const { time, lines, options } = setup();
    const observe = observer(time, [at("InCreation"), at("Failed", { failureReason: "quota exceeded" })]);

    const error = await rejectionOf(waitFor(observe, judge, options));

    expect(error.kind).toBe("failed");
    expect(error.message).toBe(
      'GET /kaas/k-1: Kaas "prod" (k-1) failed while waiting for Active: quota exceeded',
    );
    expect(observe).toHaveBeenCalledTimes(2);
    expect(time.sleeps).toEqual([10_000]);
    expect(lines).toEqual(['Kaas "prod" (k-1): InCreation, waiting for Active (0s elapsed)']);
  });

  it("throws kind failed with the service's error reason and message", async () => {
    const { time, options } = setup();
    const failed = at("Error", {
      error: { reason: "NodeProvisioningFailed", message: "no capacity in ITBG-1" },
    });
    const observe = observer(time, [failed]);

    const error = await rejectionOf(waitFor(observe, judge, options));

    expect(error.message).toBe(
      'GET /kaas/k-1: Kaas "prod" (k-1) failed while waiting for Active: NodeProvisioningFailed: no capacity in ITBG-1',
    );
    expect(time.sleeps).toEqual([]);
  });

  it("throws kind deadline naming the last state, with a last sleep cut to the deadline", async () => {
    const { time, lines, options } = setup({ deadline: 25_000 });
    const observe = observer(time, [at("InCreation"), at("InCreation"), at("Creating"), at("Creating")]);

    const error = await rejectionOf(waitFor(observe, judge, options));

    expect(error.kind).toBe("deadline");
    expect(error.message).toBe(
      'GET /kaas/k-1 failed (deadline): Kaas "prod" (k-1) did not reach Active within 25s (last state Creating)',
    );
    expect(observe).toHaveBeenCalledTimes(4);
    expect(time.sleeps).toEqual([10_000, 10_000, 5_000]);
    expect(lines).toEqual([
      'Kaas "prod" (k-1): InCreation, waiting for Active (0s elapsed)',
      'Kaas "prod" (k-1): Creating, waiting for Active (20s elapsed)',
    ]);
  });

  it("formats a deadline of minutes as XmYYs", async () => {
    const { time, options } = setup({
      deadline: 90_000,
      intervalMs: 60_000,
      target: "deleted",
      method: "DELETE",
    });
    const observe = observer(time, [at("Deleting")]);

    const error = await rejectionOf(waitFor(observe, judge, options));

    expect(error.message).toBe(
      'DELETE /kaas/k-1 failed (deadline): Kaas "prod" (k-1) did not reach deleted within 1m30s (last state Deleting)',
    );
    expect(observe).toHaveBeenCalledTimes(3);
    expect(time.sleeps).toEqual([60_000, 30_000]);
  });

  it("gives up without sleeping when a slow poll already passed the deadline", async () => {
    const { time, lines, options } = setup({ deadline: 10_000 });
    const observe = observer(time, [at("InCreation")], 12_000);

    const error = await rejectionOf(waitFor(observe, judge, options));

    expect(error.message).toBe(
      'GET /kaas/k-1 failed (deadline): Kaas "prod" (k-1) did not reach Active within 10s (last state InCreation)',
    );
    expect(observe).toHaveBeenCalledTimes(1);
    expect(time.sleeps).toEqual([]);
    expect(lines).toEqual(['Kaas "prod" (k-1): InCreation, waiting for Active (12s elapsed)']);
  });

  it("propagates an error of observe unchanged", async () => {
    const { time, options } = setup();
    const boom = new Error("GET /kaas/k-1 failed (500 Internal Server Error)");
    const observe = jest.fn(async (): Promise<Observation> => {
      throw boom;
    });

    await expect(waitFor(observe, judge, options)).rejects.toBe(boom);
    expect(time.sleeps).toEqual([]);
  });

  it("uses the judge it is given", async () => {
    const { time, options } = setup({ target: "gone" });
    const observe = observer(time, [at("Deleting"), at("Deleted")]);

    const result = await waitFor(
      observe,
      (o) =>
        o.status.state === "Deleted" ? { kind: "done" } : { kind: "pending", state: o.status.state ?? "?" },
      options,
    );

    expect(result.status.state).toBe("Deleted");
    expect(time.sleeps).toEqual([10_000]);
  });
});

describe("classifyState", () => {
  it.each([
    ["InCreation", { kind: "pending", state: "InCreation" }],
    ["Creating", { kind: "pending", state: "Creating" }],
    ["Provisioning", { kind: "pending", state: "Provisioning" }],
    ["Updating", { kind: "pending", state: "Updating" }],
    ["Deleting", { kind: "pending", state: "Deleting" }],
    ["Active", { kind: "done" }],
    ["Running", { kind: "done" }],
    ["Used", { kind: "done" }],
    ["NotUsed", { kind: "done" }],
    ["Failed", { kind: "failed", reason: "state Failed" }],
    ["Error", { kind: "failed", reason: "state Error" }],
    ["Disabled", { kind: "failed", reason: "state Disabled" }],
    // Terminal: a resource that is gone will never settle.
    ["Deleted", { kind: "failed", reason: "state Deleted" }],
    // A state the notes do not list is not guessed at: the waiter waits on it for a while, then says so.
    ["Suspended", { kind: "unknown", state: "Suspended" }],
    ["Ready", { kind: "unknown", state: "Ready" }],
    // The interface does not list the states: any spelling of a listed one is that state.
    ["ACTIVE", { kind: "done" }],
    ["active", { kind: "done" }],
    ["notused", { kind: "done" }],
    ["INCREATION", { kind: "pending", state: "INCREATION" }],
    ["updating", { kind: "pending", state: "updating" }],
    ["DELETING", { kind: "pending", state: "DELETING" }],
    ["FAILED", { kind: "failed", reason: "state FAILED" }],
    ["disabled", { kind: "failed", reason: "state disabled" }],
    ["DELETED", { kind: "failed", reason: "state DELETED" }],
  ])("judges state %s as %j", (state, verdict) => {
    expect(classifyState({ state })).toEqual(verdict);
  });

  it("carries the service's reason into a failed verdict", () => {
    expect(classifyState({ state: "Failed", failureReason: "quota exceeded" })).toEqual({
      kind: "failed",
      reason: "quota exceeded",
    });
  });

  it.each([[null], [undefined], [{}], [{ state: null }], [{ state: "" }]])(
    "treats a missing state (%j) as pending Unknown",
    (status) => {
      expect(classifyState(status)).toEqual({ kind: "pending", state: "Unknown" });
    },
  );

  it("partitions the states of the api-notes", () => {
    expect([...SETTLED_STATES]).toEqual(["Active", "Running", "Used", "NotUsed"]);
    expect([...TRANSITIONAL_STATES]).toEqual([
      "InCreation",
      "Creating",
      "Provisioning",
      "Updating",
      "Deleting",
    ]);
    expect([...FAILURE_STATES]).toEqual(["Failed", "Error", "Disabled"]);
    expect(KNOWN_STATES).toEqual({
      settled: ["Active", "Running", "Used", "NotUsed"],
      transitional: ["InCreation", "Creating", "Provisioning", "Updating"],
      deleting: ["Deleting"],
      deleted: ["Deleted"],
      failed: ["Failed", "Error", "Disabled"],
    });
  });

  it("judges the names of vendor:stateNames in any spelling, and lets them override a listed one", () => {
    const names = stateNamesOf({
      Ready: "settled",
      Starting: "transitional",
      Removing: "deleting",
      Removed: "deleted",
      Broken: "failed",
      Disabled: "settled",
    });
    expect(
      ["READY", "starting", "Removing", "removed", "BROKEN", "Disabled", "Active", "Sleeping"].map((state) =>
        classifyState({ state }, names),
      ),
    ).toEqual([
      { kind: "done" },
      { kind: "pending", state: "starting" },
      { kind: "pending", state: "Removing" },
      { kind: "failed", reason: "state removed" },
      { kind: "failed", reason: "state BROKEN" },
      { kind: "done" },
      { kind: "done" },
      { kind: "unknown", state: "Sleeping" },
    ]);
  });
});

describe("stateClassOf, the one classification of a state", () => {
  it.each([
    ["Active", "settled"],
    ["RUNNING", "settled"],
    [" used ", "settled"],
    ["Provisioning", "transitional"],
    ["creating", "transitional"],
    ["Deleting", "deleting"],
    ["deleted", "deleted"],
    ["ERROR", "failed"],
    ["Ready", "unknown"],
    ["", "unknown"],
    [null, "unknown"],
    [undefined, "unknown"],
  ])("classes %j as %s", (state, cls) => {
    expect(stateClassOf(state)).toBe(cls);
  });

  it("calls transitional and deleting states busy, in any spelling", () => {
    const names = stateNamesOf({ Starting: "transitional" });
    expect(
      ["UPDATING", "deleting", "Starting", "Active", "Deleted", "Ready"].map((s) => isBusyState(s, names)),
    ).toEqual([true, true, true, false, false, false]);
  });
});

describe("waitFor in a state it does not know", () => {
  const HINT =
    'Tell it what "Ready" means with the setting vendor:stateNames (VENDOR_STATE_NAMES), e.g. {"Ready": "settled"}, ' +
    "mapping each state name to settled, transitional, deleting, deleted or failed; " +
    "vendor:unknownStateTimeout (VENDOR_UNKNOWN_STATE_TIMEOUT) sets how long an unknown state is waited on.";

  it("names the state in a progress line at once, and ends after the unknown-state timeout naming the setting", async () => {
    const { time, lines, options } = setup({ unknownStateTimeoutMs: 30_000 });
    const observe = observer(time, [at("InCreation"), at("Ready")]);

    const error = await rejectionOf(waitFor(observe, judge, options));

    expect(error.kind).toBe("failed");
    expect(error.message).toBe(
      'GET /kaas/k-1: Kaas "prod" (k-1) stayed in state "Ready", which this provider does not know, for 30s ' +
        `while waiting for Active. ${HINT}`,
    );
    expect(observe).toHaveBeenCalledTimes(5);
    expect(time.sleeps).toEqual([10_000, 10_000, 10_000, 10_000]);
    expect(lines).toEqual([
      'Kaas "prod" (k-1): InCreation, waiting for Active (0s elapsed)',
      'Kaas "prod" (k-1) is in state "Ready", which this provider does not know (vendor:stateNames); ' +
        "waiting for Active, giving up in 30s (10s elapsed)",
    ]);
  });

  it("gives an unknown state 5 minutes by default, with heartbeats counting down", async () => {
    const { time, lines, options } = setup({ heartbeatMs: 120_000 });
    const observe = observer(time, [at("Ready")]);

    const error = await rejectionOf(waitFor(observe, judge, options));

    expect(DEFAULT_UNKNOWN_STATE_TIMEOUT_MS).toBe(300_000);
    expect(error.message).toBe(
      'GET /kaas/k-1: Kaas "prod" (k-1) stayed in state "Ready", which this provider does not know, for 5m00s ' +
        `while waiting for Active. ${HINT}`,
    );
    expect(observe).toHaveBeenCalledTimes(31);
    expect(lines).toEqual([
      'Kaas "prod" (k-1) is in state "Ready", which this provider does not know (vendor:stateNames); ' +
        "waiting for Active, giving up in 5m00s (0s elapsed)",
      'Kaas "prod" (k-1) is in state "Ready", which this provider does not know (vendor:stateNames); ' +
        "waiting for Active, giving up in 3m00s (2m00s elapsed)",
      'Kaas "prod" (k-1) is in state "Ready", which this provider does not know (vendor:stateNames); ' +
        "waiting for Active, giving up in 1m00s (4m00s elapsed)",
    ]);
  });

  it("cuts the last sleep so that the wait ends when the unknown-state time is up", async () => {
    const { time, options } = setup({ intervalMs: 60_000, unknownStateTimeoutMs: 90_000 });
    const observe = observer(time, [at("Ready")]);

    const error = await rejectionOf(waitFor(observe, judge, options));

    expect(error.message).toContain("for 1m30s while waiting for Active");
    expect(time.sleeps).toEqual([60_000, 30_000]);
  });

  it("names every unknown state it met, and suggests a mapping for the last one", async () => {
    const { time, options } = setup({ unknownStateTimeoutMs: 20_000 });
    const observe = observer(time, [at("Starting"), at("Ready")]);

    const error = await rejectionOf(waitFor(observe, judge, options));

    expect(error.message).toBe(
      'GET /kaas/k-1: Kaas "prod" (k-1) stayed in states "Starting", "Ready", which this provider does not know, ' +
        `for 20s while waiting for Active. ${HINT}`,
    );
  });

  it("starts the unknown-state time again after a known state", async () => {
    const { time, options } = setup({ unknownStateTimeoutMs: 20_000 });
    const observe = observer(time, [
      at("Starting"),
      at("Starting"),
      at("Updating"),
      at("Starting"),
      at("Active"),
    ]);

    await waitFor(observe, judge, options);

    expect(observe).toHaveBeenCalledTimes(5);
  });

  it("does not count polls that failed as a known state", async () => {
    const { time, options } = setup({ unknownStateTimeoutMs: 20_000 });
    let calls = 0;
    const observe = jest.fn(async () => {
      calls++;
      if (calls === 2) {
        throw new VendorApiErrorClass({ kind: "deadline", method: "GET", path: "/kaas/k-1" });
      }
      return at("Ready");
    });

    const error = await rejectionOf(waitFor(observe, judge, options));

    expect(error.message).toContain('stayed in state "Ready", which this provider does not know, for 20s');
    expect(time.sleeps).toEqual([10_000, 10_000]);
  });

  it("settles on a name of vendor:stateNames without waiting", async () => {
    const { time, lines, options } = setup({ unknownStateTimeoutMs: 20_000 });
    const names = stateNamesOf({ Starting: "transitional", Ready: "settled" });
    const observe = observer(time, [at("Starting"), at("Starting"), at("Starting"), at("READY")]);

    await waitFor(observe, (o) => classifyState(o.status, names), options);

    expect(lines).toEqual([
      'Kaas "prod" (k-1): Starting, waiting for Active (0s elapsed)',
      'Kaas "prod" (k-1) is Active after 30s',
    ]);
  });
});

describe("failureReasonOf", () => {
  it.each<[StatusLike | null | undefined, string]>([
    [{ state: "Failed", failureReason: "quota exceeded" }, "quota exceeded"],
    [
      { state: "Error", error: { reason: "NodeProvisioningFailed", message: "no capacity" } },
      "NodeProvisioningFailed: no capacity",
    ],
    [{ state: "Error", error: { message: "no capacity" } }, "no capacity"],
    [{ failureReason: "F", error: { reason: "R", message: "M" } }, "F: R: M"],
    [{ failureReason: "same", error: { reason: "same", message: "other" } }, "same: other"],
    [{ state: "Failed", failureReason: "  ", error: { reason: null, message: "" } }, "state Failed"],
    [{ state: "Disabled", error: null }, "state Disabled"],
    [{}, "state unknown"],
    [null, "state unknown"],
    [undefined, "state unknown"],
  ])("reads %j as %j", (status, reason) => {
    expect(failureReasonOf(status)).toBe(reason);
  });
});

describe("polls that fail", () => {
  const transient = () =>
    new VendorApiErrorClass({
      kind: "deadline",
      method: "GET",
      path: "/kaas/k-1",
      detail: "gave up after retries",
    });

  it("count as still waiting after a poll exhausted its retries, and the wait goes on", async () => {
    const { time, lines, options } = setup();
    let calls = 0;
    const observe = jest.fn(async () => {
      calls++;
      if (calls <= 2) throw transient();
      return at("Active");
    });
    await expect(waitFor(observe, judge, options)).resolves.toEqual(at("Active"));
    expect(observe).toHaveBeenCalledTimes(3);
    expect(time.sleeps).toEqual([10_000, 10_000]);
    expect(lines).toEqual([
      'Kaas "prod" (k-1): unreachable, waiting for Active (0s elapsed)',
      'Kaas "prod" (k-1) is Active after 20s',
    ]);
  });

  it("wait at least the service's Retry-After before the next poll, across calls", async () => {
    const { time, options } = setup();
    let calls = 0;
    const observe = jest.fn(async () => {
      if (++calls === 1) {
        throw new VendorApiErrorClass({
          kind: "deadline",
          method: "GET",
          path: "/kaas/k-1",
          retryAfterMs: 30_000,
        });
      }
      return at("Active");
    });
    await waitFor(observe, judge, options);
    expect(time.sleeps).toEqual([30_000]);
  });

  it("end the wait when the error is permanent", async () => {
    const { options } = setup();
    const refused = new VendorApiErrorClass({ kind: "http", method: "GET", path: "/kaas/k-1", status: 403 });
    const observe = jest.fn(async () => {
      throw refused;
    });
    await expect(waitFor(observe, judge, options)).rejects.toBe(refused);
    expect(observe).toHaveBeenCalledTimes(1);
  });

  it("end the wait at its deadline, naming the last state", async () => {
    const { options } = setup({ deadline: 25_000 });
    const observe = jest.fn(async () => {
      throw transient();
    });
    const error = await rejectionOf(waitFor(observe, judge, options));
    expect(error.message).toBe(
      'GET /kaas/k-1 failed (deadline): Kaas "prod" (k-1) did not reach Active within 25s (last state unreachable: GET /kaas/k-1 failed (deadline): gave up after retries)',
    );
  });
});
