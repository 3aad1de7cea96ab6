/**
 * Outputs must be JSON-safe (dynamic-provider notes): `undefined` anywhere throws "Unexpected struct
 * type" and `Date`/`Map` silently become `{}`. Every kind's outputs pass through `jsonSafe`: a copy without
 * `undefined` members or array items, dates as ISO strings. (Written with loops: it runs on every output of
 * every resource a refresh reads.)
 */
export function jsonSafe<T>(value: T): T {
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) if (item !== undefined) items.push(jsonSafe(item));
    return items as T;
  }
  if (value instanceof Date) return value.toISOString() as T;
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined) continue;
      // A key `__proto__` stays a member, as Object.fromEntries would keep it, rather than set the prototype.
      if (key === "__proto__")
        Object.defineProperty(copy, key, {
          value: jsonSafe(member),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else copy[key] = jsonSafe(member);
    }
    return copy as T;
  }
  return value;
}

/** Removes keys whose value is `undefined` or `null` (for building request bodies from optional inputs). */
export function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as T;
}
