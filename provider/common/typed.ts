/**
 * Guards and typed readers for values whose type TypeScript cannot see: the engine's inputs and state (`unknown`
 * members), parsed JSON, caught errors and the keys of the package's own tables.
 */

/** Whether `value` is a plain object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Whether `value` is one of `allowed`. */
export function isOneOf<T extends string>(value: string, allowed: readonly T[]): value is T {
  return allowed.some((item) => item === value);
}

/** Whether a thrown value carries a string `id`: a partial failure, which the engine records with that id. */
export function carriesId(error: unknown): error is { id: string } {
  return typeof error === "object" && error !== null && "id" in error && typeof error.id === "string";
}

/** A string member of a state (`previous.kubeconfig`), or null when it is absent or not a string. */
export const stringOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** A number member of a state (`previous.sizeGb`), or null when it is absent or not a number. */
export const numberOrNull = (value: unknown): number | null => (typeof value === "number" ? value : null);

/** The keys of a table of the package, typed as its key type. */
export function keysOf<K extends string>(table: Readonly<Record<K, unknown>>): K[] {
  // `Object.keys` is typed `string[]`; the tables passed here are literals keyed by exactly `K`.
  return Object.keys(table) as K[];
}

/** A record with `value(key)` for each of `keys`, typed as complete. */
export function recordOf<K extends string, V>(keys: readonly K[], value: (key: K) => V): Record<K, V> {
  // `Object.fromEntries` is typed with string keys; every key of `K` is given, so the record is complete.
  return Object.fromEntries(keys.map((key) => [key, value(key)])) as Record<K, V>;
}
