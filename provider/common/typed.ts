/**
 * Guards and typed readers for values whose type TypeScript cannot see: the engine's inputs and state (`unknown`
 * members), parsed JSON, caught errors and the keys of the package's own tables.
 */
import { fromEntriesOf } from "../../schemas/typed";

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

export { keysOf } from "../../schemas/typed";

/** A record with `value(key)` for each of `keys`, typed as complete. */
export function recordOf<K extends string, V>(keys: readonly K[], value: (key: K) => V): Record<K, V> {
  // Every key of `K` is given, which is what `fromEntriesOf` asks of its callers.
  return fromEntriesOf<Record<K, V>>(keys.map((key) => [key, value(key)]));
}
