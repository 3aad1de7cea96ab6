/**
 * The emulator clock: real time plus an offset that tests move through the control API. Every lifecycle
 * transition is computed lazily from timestamps against this clock (no timers), so a test can jump an hour
 * ahead and observe a scheduled upgrade without waiting.
 */

/** Reads and moves the emulator's notion of "now" (epoch milliseconds). */
export class EmulatorClock {
  /** Milliseconds added to real time. */
  offsetMs: number;

  /**
   * @param realNow source of real time, `Date.now` by default (tests may pin it).
   * @param offsetMs initial offset, 0 by default (restored from a state file on restart).
   */
  constructor(
    readonly realNow: () => number = Date.now,
    offsetMs = 0,
  ) {
    this.offsetMs = offsetMs;
  }

  /** The emulator's current time in epoch milliseconds. */
  now(): number {
    return this.realNow() + this.offsetMs;
  }

  /** Moves the clock forward (or backward, with a negative value) by `ms`. Returns the new time. */
  advance(ms: number): number {
    this.offsetMs += ms;
    return this.now();
  }

  /** Sets the clock to `epochMs`. Returns the new time. */
  set(epochMs: number): number {
    this.offsetMs = epochMs - this.realNow();
    return this.now();
  }
}

/** ISO 8601 rendering of an emulator timestamp. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
