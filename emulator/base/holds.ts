/**
 * Holds of the control API: a test stops a client at an exact request instead of polling the request log and
 * hoping to be in time. A hold waits for the `nth` API request that matches it (counted from the hold's
 * creation) and keeps that request in the pipeline until it is released:
 *
 * - `before`: nothing of the request is processed yet. Released, it goes on as if it had just arrived; if its
 *   client went away meanwhile (a killed run), it is never processed and the log records it dropped before.
 * - `after`: the request was processed (a create created) and its answer is withheld. Released, the answer is
 *   sent; if its client went away meanwhile, it is lost and the log records the request dropped after.
 *
 * An `after` hold may also name the `status.state` the answer shows (`state`), which says where a client
 * polling an object stands. Held requests wait on a promise: the control API, the other requests and the
 * other holds go on meanwhile. The token endpoint and the control API are never held.
 */
import type { WireFieldError } from "./problems";
import type { RequestLogEntry } from "./requests";
import { errorMessage } from "./errors";

/** When a hold stops its request: before anything is processed, or after, with its answer withheld. */
export type HoldStage = "before" | "after";

/** What a hold waits for (`POST /_emulator/holds`); every field is optional. */
export interface HoldSpec {
  /** The request's method, in any case. Default any method. */
  method?: string;
  /** A regular expression (JavaScript syntax) the whole path must match, query excluded. Default any path. */
  pathPattern?: string;
  /**
   * A regular expression (JavaScript syntax) that must match somewhere in the request body, read as text: what
   * tells apart requests on one path, such as the creates of two objects. Default any body.
   */
  bodyPattern?: string;
  /** The `status.state` the answer shows (an answer of one object); only for `after` holds. Default any. */
  state?: string;
  /** Which matching request to hold, counted from the hold's creation, from 1. Default 1. */
  nth?: number;
  /** `before` (default) or `after`. */
  when?: HoldStage;
}

/** A hold as the control API shows it. */
export interface HoldStatus {
  /** `hold-1`, `hold-2`...: numbered from 1 since the start or the last reset. */
  id: string;
  method: string | null;
  pathPattern: string | null;
  bodyPattern: string | null;
  state: string | null;
  nth: number;
  when: HoldStage;
  /** How many requests matched so far, the held one included (at most `nth`). */
  matched: number;
  /** True once a request is held (it stays true after the release). */
  reached: boolean;
  /** True once released, whether a request was held or not (a hold released before is cancelled). */
  released: boolean;
  /**
   * True once the held request's client closed its connection (a killed run): released, the request then goes
   * no further. A test waits for it before releasing, since the emulator learns of a dead client only when it
   * reads the closed connection.
   */
  clientGone: boolean;
  /** The held request as the log shows it (for an `after` hold, with the status and state answered), or null. */
  request: RequestLogEntry | null;
}

/** A hold, for in-process tests (`Emulator.hold`). */
export interface RequestHold {
  readonly id: string;
  /**
   * Resolves with the held request once a request is held, or with null when the hold is released before any
   * request reached it. Never rejects.
   */
  readonly reached: Promise<RequestLogEntry | null>;
  /** Resolves once the held request's client closed its connection; never before a request is held. */
  readonly clientGone: Promise<void>;
  status(): HoldStatus;
  /** Lets the held request go on (or cancels a hold not reached yet); releasing again changes nothing. */
  release(): HoldStatus;
}

const SPEC_FIELDS = ["method", "pathPattern", "bodyPattern", "state", "nth", "when"];

/** Checks a hold specification; returns the problems as field errors (empty when valid). */
export function checkHoldSpec(spec: Record<string, unknown>): WireFieldError[] {
  const problems: WireFieldError[] = [];
  const problem = (fieldName: string, errorMessage: string) => problems.push({ fieldName, errorMessage });
  for (const key of Object.keys(spec)) {
    if (!SPEC_FIELDS.includes(key))
      problem(key, `is not a field of a hold (fields: ${SPEC_FIELDS.join(", ")})`);
  }
  for (const key of ["method", "pathPattern", "bodyPattern", "state"]) {
    const value = spec[key];
    if (value !== undefined && (typeof value !== "string" || value === "")) {
      problem(key, "must be a non-empty string");
    }
  }
  for (const key of ["pathPattern", "bodyPattern"]) {
    const value = spec[key];
    if (typeof value !== "string" || value === "") continue;
    try {
      new RegExp(value);
    } catch (error) {
      problem(key, `must be a regular expression: ${errorMessage(error)}`);
    }
  }
  if (
    spec.nth !== undefined &&
    !(typeof spec.nth === "number" && Number.isInteger(spec.nth) && spec.nth >= 1)
  ) {
    problem("nth", "must be an integer >= 1");
  }
  if (spec.when !== undefined && spec.when !== "before" && spec.when !== "after") {
    problem("when", "must be before or after");
  }
  // Before processing there is no answer, so no state to compare.
  if (spec.state !== undefined && spec.when !== "after") problem("state", "needs when: after");
  return problems;
}

/** A hold and what it holds. */
class Hold {
  matched = 0;
  released = false;
  request: RequestLogEntry | null = null;
  clientGone = false;
  readonly reached: Promise<RequestLogEntry | null>;
  private reach!: (request: RequestLogEntry | null) => void;
  readonly gone: Promise<void>;
  private leave!: () => void;
  /** Resolves when the hold is released. */
  readonly gate: Promise<void>;
  private open!: () => void;
  private readonly path: RegExp | null;
  private readonly body: RegExp | null;

  constructor(
    readonly id: string,
    readonly spec: Required<Pick<HoldSpec, "nth" | "when">> & Omit<HoldSpec, "nth" | "when">,
  ) {
    this.reached = new Promise((resolve) => (this.reach = resolve));
    this.gone = new Promise((resolve) => (this.leave = resolve));
    this.gate = new Promise((resolve) => (this.open = resolve));
    this.path = spec.pathPattern === undefined ? null : new RegExp(`^(?:${spec.pathPattern})$`);
    this.body = spec.bodyPattern === undefined ? null : new RegExp(spec.bodyPattern);
  }

  /** True when this hold still waits and `entry`, with `body`, at `stage`, is one it counts. */
  counts(stage: HoldStage, entry: RequestLogEntry, body: string): boolean {
    const { method, state, when } = this.spec;
    return (
      !this.released &&
      this.request === null &&
      when === stage &&
      (method === undefined || method.toUpperCase() === entry.method.toUpperCase()) &&
      (this.path === null || this.path.test(entry.path)) &&
      (this.body === null || this.body.test(body)) &&
      (state === undefined || state === entry.state)
    );
  }

  /**
   * Counts `entry`; true when it is the one to hold (then the hold has reached it, and `closed` tells when its
   * client goes away).
   */
  take(entry: RequestLogEntry, closed: () => Promise<void>): boolean {
    this.matched++;
    if (this.matched < this.spec.nth) return false;
    this.request = { ...entry, query: { ...entry.query } };
    void closed().then(() => {
      this.clientGone = true;
      this.leave();
    });
    this.reach(this.request);
    return true;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.request === null) this.reach(null);
    this.open();
  }

  status(): HoldStatus {
    const { method, pathPattern, bodyPattern, state, nth, when } = this.spec;
    return {
      id: this.id,
      method: method ?? null,
      pathPattern: pathPattern ?? null,
      bodyPattern: bodyPattern ?? null,
      state: state ?? null,
      nth,
      when,
      matched: this.matched,
      reached: this.request !== null,
      released: this.released,
      clientGone: this.clientGone,
      request: this.request === null ? null : { ...this.request, query: { ...this.request.query } },
    };
  }
}

/** The holds of one emulator. */
export class Holds {
  private holds = new Map<string, Hold>();
  private seq = 0;

  /** Adds a hold; `spec` must have passed `checkHoldSpec`. */
  add(spec: HoldSpec): RequestHold {
    const hold = new Hold(`hold-${++this.seq}`, { ...spec, nth: spec.nth ?? 1, when: spec.when ?? "before" });
    this.holds.set(hold.id, hold);
    return {
      id: hold.id,
      reached: hold.reached,
      clientGone: hold.gone,
      status: () => hold.status(),
      release: () => {
        hold.release();
        return hold.status();
      },
    };
  }

  /** True when a hold waits for a request (the pipeline skips holds otherwise). */
  waiting(): boolean {
    for (const hold of this.holds.values()) if (!hold.released && hold.request === null) return true;
    return false;
  }

  /** Every hold, oldest first. */
  list(): HoldStatus[] {
    return [...this.holds.values()].map((hold) => hold.status());
  }

  /** The hold `id`, or undefined. */
  get(id: string): HoldStatus | undefined {
    return this.holds.get(id)?.status();
  }

  /** Releases the hold `id`; undefined when there is none. */
  release(id: string): HoldStatus | undefined {
    const hold = this.holds.get(id);
    hold?.release();
    return hold?.status();
  }

  /** Releases every hold and forgets them all; returns how many there were. */
  clear(): number {
    const count = this.holds.size;
    for (const hold of this.holds.values()) hold.release();
    this.holds.clear();
    return count;
  }

  /** Releases and forgets every hold, and numbers the next one `hold-1` again. */
  reset(): void {
    this.clear();
    this.seq = 0;
  }

  /**
   * Counts `entry`, whose body reads `body`, at `stage` against every waiting hold and, when one or more of
   * them reach it, waits until all of those are released. `closed` resolves when the request's connection
   * closes. Resolves true when the request was held.
   */
  async pass(
    stage: HoldStage,
    entry: RequestLogEntry,
    body: string,
    closed: () => Promise<void>,
  ): Promise<boolean> {
    const holding: Hold[] = [];
    for (const hold of this.holds.values()) {
      if (hold.counts(stage, entry, body) && hold.take(entry, closed)) holding.push(hold);
    }
    if (holding.length === 0) return false;
    await Promise.all(holding.map((hold) => hold.gate));
    return true;
  }
}
