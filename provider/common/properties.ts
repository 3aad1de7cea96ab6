/**
 * What the resources of a kind are made of, described once in the kind's `types.ts` (`KAAS_PROPERTIES`, ...)
 * and served as it is by both doors: the dynamic resources read the argument schema and the computed outputs,
 * and the provider plugin serves the same properties (plugin/kinds.ts), its package schema derived from them
 * (scripts/package-schema.mjs).
 */
import type { ArgumentSchema } from "./arguments";

/** The properties of a kind whose argument schema is `A` and whose computed outputs are `Outputs`. */
export interface KindProperties<A extends ArgumentSchema, Outputs extends object> {
  /** The kind's argument schema (its `types.ts`): the resource's input properties. */
  readonly arguments: A;
  /** The kind's computed outputs, besides its arguments. */
  readonly computed: readonly Extract<keyof Outputs, string>[];
  /** Inputs and outputs always stored as secrets, whatever the program passed. */
  readonly secrets: readonly string[];
  /** Computed outputs no update changes: an update's preview shows them as the state has them. */
  readonly stable: readonly Extract<keyof Outputs, string>[];
}
