/**
 * Outputs must be JSON-safe (dynamic-provider notes): `undefined` anywhere throws "Unexpected struct
 * type" and `Date`/`Map` silently become `{}`. Every kind's outputs pass through `jsonSafe`.
 */
export function jsonSafe<T>(value: T): T {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(jsonSafe) as T;
  if (value instanceof Date) return value.toISOString() as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, jsonSafe(v)]),
    ) as T;
  }
  return value;
}

/** Removes keys whose value is `undefined` or `null` (for building request bodies from optional inputs). */
export function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as T;
}
