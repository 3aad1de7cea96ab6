/**
 * The building blocks of every kind's `diff`: a pure comparison driven by a table that says, for each
 * argument, whether a change replaces the resource, updates it in place, or is ignored. `changes` is
 * always explicit (dynamic-provider notes: `undefined` means "unknown" and the engine falls back to a raw
 * comparison that includes `__provider`).
 */
import type { dynamic } from "@pulumi/pulumi";
import type { Inputs } from "./check";
import { containsUnknown, isUnknown } from "./unknown";
import { isPlainObject, keysOf } from "./typed";

/** What a change to one argument does. */
export type ChangeEffect = "replace" | "update" | "ignore";

/** Each argument of a kind and the effect of changing it. Typed per kind so no argument is forgotten. */
export type DiffTable<K extends string> = Record<K, ChangeEffect>;

/**
 * The result handed back to the engine: the SDK's own `DiffResult`, with `changes` and `replaces` always
 * given, and the arguments that changed (replacing or not) for tests and messages.
 */
export interface DiffResult extends dynamic.DiffResult {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly updates: string[];
}

/** Canonical JSON: object keys sorted, `undefined` and absent keys treated alike, null kept. */
export function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (isPlainObject(v)) {
        return Object.fromEntries(
          Object.keys(v)
            .sort()
            .filter((k) => v[k] !== undefined)
            .map((k) => [k, v[k]]),
        );
      }
      return v;
    }) ?? "undefined"
  );
}

/**
 * Deep equality on canonical JSON, with `undefined`, `null` and absence of an optional value alike:
 * `canonical(a) === canonical(b)` after a top-level `null` is read as `undefined`, worked out by walking both
 * values instead of writing them out. It runs for every argument of every resource in each `diff` and refresh
 * (100 clusters, hundreds of comparisons), where building two sorted copies per object cost more than the rest
 * of the comparison.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  return sameJson(a === null ? undefined : a, b === null ? undefined : b);
}

/** Whether `v` is an object (an array included) whose members can be read by key. */
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object";

/**
 * What `JSON.stringify` writes for `v`: its `toJSON` (a `Date`), `null` for a non-finite number, nothing
 * (`undefined`) for a function or a symbol.
 */
function jsonOf(v: unknown): unknown {
  // As JSON.stringify does, `toJSON` once, then the primitive's rules. (`canonical`'s replacer copies any other
  // object before JSON reads it, so a boxed primitive counts as an object, as here.)
  let w = v;
  // `toJSON` is a function (checked first), called as JSON.stringify calls it.
  if (isObject(w) && typeof w.toJSON === "function") w = Reflect.apply(w.toJSON, w, []);
  if (typeof w === "number") return Number.isFinite(w) ? w : null;
  if (typeof w === "function" || typeof w === "symbol") return undefined;
  return w;
}

/** The members of object `o` that JSON writes, each as it writes it (`jsonOf`), by key. */
function writtenMembers(o: Record<string, unknown>): Map<string, unknown> {
  const members = new Map<string, unknown>();
  for (const key of Object.keys(o)) {
    const member = jsonOf(o[key]);
    if (member !== undefined) members.set(key, member);
  }
  return members;
}

/** Whether `a` and `b` have the same canonical JSON (see `canonical`). */
function sameJson(a: unknown, b: unknown): boolean {
  return sameWritten(jsonOf(a), jsonOf(b));
}

/** `sameJson` of two values already read as JSON writes them (`jsonOf`), so no `toJSON` runs twice. */
function sameWritten(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (!isObject(x) || !isObject(y)) return false;
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    // In an array, what writes nothing (a hole included) is written `null`.
    for (let i = 0; i < x.length; i += 1)
      if (!sameWritten(jsonOf(x[i]) ?? null, jsonOf(y[i]) ?? null)) return false;
    return true;
  }
  const xs = writtenMembers(x);
  const ys = writtenMembers(y);
  if (xs.size !== ys.size) return false;
  for (const [key, member] of xs) if (!ys.has(key) || !sameWritten(member, ys.get(key))) return false;
  return true;
}

/**
 * True when the known parts of `news` differ from `olds`; an unknown leaf matches anything. So an unknown
 * value never replaces by itself, but `{address: <unknown>, name: "changed"}` does, since `up` will.
 */
export function knownPartsDiffer(olds: unknown, news: unknown): boolean {
  if (!containsUnknown(news)) return !sameValue(olds, news);
  if (isUnknown(news)) return false;
  if (Array.isArray(news)) {
    return (
      !Array.isArray(olds) || olds.length !== news.length || news.some((v, i) => knownPartsDiffer(olds[i], v))
    );
  }
  if (!isPlainObject(olds) || !isPlainObject(news)) return true;
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys].some((k) => knownPartsDiffer(olds[k], news[k]));
}

/**
 * Compares `news` (new inputs) with `olds` (the state) argument by argument according to `table`.
 * A changed argument whose new value is unknown (preview) counts as an update, never as a replacement:
 * the real value is compared again when `up` runs. `custom` handles arguments the table marks `ignore`
 * but that need bespoke logic (node pools, versions); it returns the extra updates.
 */
export function diffByTable<K extends string>(
  olds: Inputs,
  news: Inputs,
  table: DiffTable<K>,
  equal: (key: K, a: unknown, b: unknown) => boolean = (_k, a, b) => sameValue(a, b),
): DiffResult {
  const replaces: string[] = [];
  const updates: string[] = [];
  for (const key of keysOf(table)) {
    const effect = table[key];
    if (effect === "ignore") continue;
    if (equal(key, olds[key], news[key])) continue;
    updates.push(key);
    if (effect === "replace" && knownPartsDiffer(olds[key], news[key])) replaces.push(key);
  }
  return { changes: updates.length > 0, replaces, updates };
}

/** Merges extra changed arguments into a table result. */
export function withUpdates(result: DiffResult, extra: string[]): DiffResult {
  const updates = [...result.updates, ...extra.filter((e) => !result.updates.includes(e))];
  return { ...result, updates, changes: updates.length > 0 };
}
