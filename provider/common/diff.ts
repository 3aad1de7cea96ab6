/**
 * The building blocks of every kind's `diff`: a pure comparison driven by a table that says, for each
 * argument, whether a change replaces the resource, updates it in place, or is ignored. `changes` is
 * always explicit (dynamic-provider notes: `undefined` means "unknown" and the engine falls back to a raw
 * comparison that includes `__provider`).
 */
import type { dynamic } from "@pulumi/pulumi";
import type { Inputs } from "./check";
import { containsUnknown, isUnknown } from "./unknown";

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
      if (v !== null && typeof v === "object" && !Array.isArray(v)) {
        return Object.fromEntries(
          Object.keys(v as object)
            .sort()
            .filter((k) => (v as Inputs)[k] !== undefined)
            .map((k) => [k, (v as Inputs)[k]]),
        );
      }
      return v;
    }) ?? "undefined"
  );
}

/** Deep equality on canonical JSON, with `undefined`, `null` and absence of an optional value alike. */
export function sameValue(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (v === null ? undefined : v);
  return canonical(norm(a)) === canonical(norm(b));
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
  if (olds === null || typeof olds !== "object" || Array.isArray(olds)) return true;
  const keys = new Set([...Object.keys(olds as object), ...Object.keys(news as object)]);
  return [...keys].some((k) => knownPartsDiffer((olds as Inputs)[k], (news as Inputs)[k]));
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
  for (const key of Object.keys(table) as K[]) {
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
