/**
 * Typed forms of the `Object` functions, of `require` and of the guards every layer needs: `Object.keys` and
 * `Object.fromEntries` type their results by string whatever the object, and `require` types nothing, so the one
 * assertion of each lives here, next to the reason it holds.
 */

/** The own enumerable keys of `object`, typed as its keys (true of objects built as literals of `T`). */
export function keysOf<T extends object>(object: T): Extract<keyof T, string>[] {
  // `Object.keys` answers exactly the own enumerable string keys; the tables passed here have no others.
  return Object.keys(object) as Extract<keyof T, string>[];
}

/**
 * The object of `entries`, typed as `T`. TypeScript types no object built from a list of entries, so the one
 * assertion of it lives here: callers pass an entry for every key of `T` (they map over the keys of a table
 * of `T`'s keys).
 */
export function fromEntriesOf<T>(entries: Iterable<readonly [PropertyKey, unknown]>): T {
  return Object.fromEntries(entries) as T;
}

/**
 * The module `load` requires, typed as `T`: the module of the same id that the caller's `import type` describes.
 * For a module required where it is first needed rather than at import (the caller says why); `require` types
 * what it loads as `any`, so the caller names the module's type here once, next to its `require`.
 */
export function requiredAs<T>(load: () => unknown): T {
  return load() as T;
}

/** Whether `value` is a non-null object (an array included), whose properties can be read by name. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The message of any thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
