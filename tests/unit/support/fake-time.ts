/**
 * A fake clock for retry and wait loops: `sleep` records each delay, advances the clock by it and resolves
 * at once, so a test runs in milliseconds and asserts the exact schedule.
 */
export interface FakeTime {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Every delay passed to `sleep`, in order. */
  sleeps: number[];
  /** Moves the clock without sleeping (time spent elsewhere, e.g. in an HTTP attempt). */
  advance(ms: number): void;
}

export function fakeTime(start = 1_700_000_000_000): FakeTime {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
    sleeps,
    advance(ms: number) {
      t += ms;
    },
  };
}

/** A random source that answers the given values in turn (the last one repeats). */
export function scriptedRandom(...values: number[]): () => number {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)];
}
