/**
 * Projected answers. A list asked with `projection` answers the fields the projection
 * names, and which fields those are is not documented (spec §4.1 "Syntax and semantics of `filter`, `sort`
 * and `projection`: not shown"): a projected item is a partial object by definition. It is checked against
 * the deep-partial form of the item schema, where every field is optional and a field that is present still
 * has its type.
 */
import type { TSchema } from "@sinclair/typebox";
import { isRecord, requiredAs } from "./typed";
import { wireSchema } from "./validate";
import type { WireSchemaName } from "./wire";

/**
 * A response object as a projected list answers it: every field optional, at every depth, with its type where
 * present. `metadata.id` is optional too: which fields a projection keeps is not documented.
 */
export type Projected<T> = { [K in keyof T]?: ProjectedValue<T[K]> };

/**
 * A field of a {@link Projected} object: an object or the items of an array are projected in turn, other
 * values keep their type. (Kept apart from `Projected`, a mapped type, so that `Projected<KaasResponse>` is
 * shown by that name rather than spelt out.)
 */
export type ProjectedValue<V> = V extends readonly (infer U)[]
  ? ProjectedValue<U>[]
  : V extends object
    ? Projected<V>
    : V;

/**
 * What a list asked with query `Q` answers: `Whole` without a projection, `Part` with one, either when the
 * query's type does not say (a `projection` that may be undefined).
 */
export type ListedAs<Q, Whole, Part> = [ProjectionOf<Q>] extends [undefined]
  ? Whole
  : undefined extends ProjectionOf<Q>
    ? Whole | Part
    : Part;

/**
 * The type of `Q`'s `projection`, `undefined` when it has none. (A conditional on `{ projection?: ... }`
 * would be a weak type, which a query without the key, `{ filter }`, does not extend.)
 */
export type ProjectionOf<Q> = "projection" extends keyof Q ? Q["projection" & keyof Q] : undefined;

/** The keywords whose values are schemas, or lists of schemas, that `deepPartial` walks into. */
const SUBSCHEMA_LISTS = ["anyOf", "oneOf", "allOf"] as const;

/**
 * `schema` with no field required at any depth; types, formats and bounds are kept. A new plain JSON schema
 * (TypeBox's symbols are dropped; ajv never reads them).
 */
export function deepPartial(schema: TSchema): TSchema {
  const out: TSchema = { ...schema };
  makeDeepPartial(out);
  return out;
}

/** A subschema's deep-partial copy, as {@link deepPartial} makes it (TypeBox types no subschema). */
function partialCopy(schema: unknown): Record<string, unknown> {
  const out = isRecord(schema) ? { ...schema } : {};
  makeDeepPartial(out);
  return out;
}

/** Drops `required` from the fresh copy `out`, and replaces each of its subschemas by its deep-partial copy. */
function makeDeepPartial(out: Record<string, unknown>): void {
  delete out.required;
  // A JSON schema's `properties`, when present, maps names to schemas.
  const properties = out.properties;
  if (isRecord(properties)) {
    out.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, partialCopy(v)]));
  }
  // `items` is a schema or a list of them; the check below keeps the single schema.
  const items = out.items;
  if (isRecord(items) && !Array.isArray(items)) out.items = partialCopy(items);
  for (const keyword of SUBSCHEMA_LISTS) {
    const list = out[keyword];
    if (Array.isArray(list)) out[keyword] = list.map(partialCopy);
  }
}

const projectedLists = new Map<WireSchemaName, TSchema>();

/**
 * The list envelope of projected items of the table's schema `item`, made once per item schema: the validator
 * cache of `validateSchema` is keyed by schema object, so each projected list is compiled once per process, on
 * its first use. Only a projected list loads the schemas (and TypeBox) at run time.
 */
export function projectedListOf(item: WireSchemaName): TSchema {
  let list = projectedLists.get(item);
  if (!list) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded for a projected list only
    const { ListEnvelope } = requiredAs<typeof import("./common")>(() => require("./common"));
    list = ListEnvelope(deepPartial(wireSchema(item)));
    projectedLists.set(item, list);
  }
  return list;
}
