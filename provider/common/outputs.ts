/**
 * Outputs must be JSON-safe (dynamic-provider notes): `undefined` anywhere throws "Unexpected struct
 * type" and `Date`/`Map` silently become `{}`. Every kind's outputs pass through `jsonSafe`: a copy without
 * `undefined` members or array items, dates as ISO strings. (Written with loops: it runs on every output of
 * every resource a refresh reads.)
 */
// The copy has the shape of `value` with `undefined` members dropped and dates as strings: typed as `T`, as
// JSON would read it back. The signature says so once; the body works on untyped values.
export function jsonSafe<T>(value: T): T;
export function jsonSafe(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) if (item !== undefined) items.push(jsonSafe(item));
    return items;
  }
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === "object") {
    const members: [string, unknown][] = [];
    for (const [key, member] of Object.entries(value))
      if (member !== undefined) members.push([key, jsonSafe(member)]);
    return Object.fromEntries(members);
  }
  return value;
}

/** Removes keys whose value is `undefined` or `null` (for building request bodies from optional inputs). */
// Only optional members go: the copy is still a `T`. The signature says so once.
export function compact<T extends Record<string, unknown>>(value: T): T;
export function compact(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null));
}
