/**
 * Tables keyed by kind: the helpers the generic code and the composition build their per-kind objects with,
 * from a table of kinds they are given (the list of `kinds/index.ts`, or a part of it), never by importing it.
 */
import { fromEntriesOf, keysOf } from "../../schemas/typed";

/** The names of the kinds of `kinds`, in its order. */
export function kindNames<T extends object>(kinds: T): (keyof T & string)[] {
  // A table of kinds is an object literal whose keys are the kinds and nothing else (`kinds/index.ts`).
  return keysOf(kinds);
}

/** Whether `name` is a kind of `kinds` (a request body's or the command line's text, say). */
export function isKindOf<T extends object>(kinds: T, name: unknown): name is keyof T & string {
  return typeof name === "string" && Object.hasOwn(kinds, name);
}

/**
 * An object with one entry per kind of `kinds`, by kind name: `valueOf(kind)`. Its keys come in the order of
 * `order`, by default the table's; `order` names every kind of `kinds`.
 */
export function byKind<T extends object>(
  kinds: { readonly [K in keyof T]: unknown },
  valueOf: <K extends keyof T & string>(kind: K) => T[K],
  order: readonly (keyof T & string)[] = kindNames(kinds),
): T {
  // An entry for every kind of `order`, which names every kind of `kinds`.
  return fromEntriesOf<T>(order.map((kind) => [kind, valueOf(kind)]));
}

/** An object with one entry per kind of `kinds`, under the kind's state-file field: `valueOf(kind)`. */
export function byStateField<T extends { readonly [kind: string]: { readonly stateField: string } }, V>(
  kinds: T,
  valueOf: (kind: keyof T & string) => V,
): Record<T[keyof T]["stateField"], V> {
  // An entry for every kind, under its state-file field.
  return fromEntriesOf(kindNames(kinds).map((kind) => [kinds[kind].stateField, valueOf(kind)]));
}
