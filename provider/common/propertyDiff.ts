/**
 * The property paths of a diff: which properties of a resource's inputs changed, as the engine's protocol
 * states them (`DiffResponse.diffs` and `detailedDiff`, proto/pulumi/provider.proto). Worked out from a kind's
 * own diff (`DiffResult`: the arguments that changed and those that replace), never from a comparison of its
 * own: a path appears only under an argument the kind found changed, and it replaces exactly when that
 * argument is among the kind's replacements. The engine matches the `replaceOnChanges` and `ignoreChanges`
 * resource options against these paths, and `pulumi preview --diff` shows them (engine notes "diff on the provider plugin").
 *
 * Pure: no I/O, nothing of the REST client.
 */
import type { Inputs } from "./check";
import { sameValue } from "./diff";
import { isPlainObject } from "./typed";
import { isUnknown } from "./unknown";

/** What happened at one path, in the protocol's words (`PropertyDiff.Kind`). */
export type PropertyDiffKind =
  "ADD" | "ADD_REPLACE" | "DELETE" | "DELETE_REPLACE" | "UPDATE" | "UPDATE_REPLACE";

/** The detailed diff: each changed path (`nodePools[1].nodes`) and what happened there. */
export type DetailedDiff = Record<string, PropertyDiffKind>;

/** The property paths of a diff. */
export interface PropertyDiffs {
  /** The top-level arguments that changed, in the order the kind found them. */
  diffs: string[];
  /** Every changed path under them, as deep as each argument's shape goes. */
  detailedDiff: DetailedDiff;
}

/**
 * What the paths are read from: the arguments a kind found changed (`updates`, replacing ones included) and
 * those that replace (`replaces`), as `DiffResult` carries them.
 */
export interface ChangedArguments {
  readonly updates: readonly string[];
  readonly replaces: readonly string[];
}

/**
 * The arguments a resource's inputs have, by name: only these appear (bookkeeping inputs such as
 * `creationScope` are no argument), and a list whose rule says `matchedBy` is compared element by element
 * through that member, as the kind compares it.
 */
export type PathRules = Readonly<Record<string, { readonly matchedBy?: string }>>;

/** One step of a property path: an object key or a list index. */
type Step = string | number;

/** Whether a key needs the quoted form `["key"]`: the engine writes bare only letters, digits and `_`. */
const NEEDS_QUOTES = /[^A-Za-z0-9_]/;

/**
 * `steps` in the engine's property path syntax, as its `PropertyPath.String` writes it: `nodePools[1].nodes`,
 * `autoscalerProfile["scale-down-delay"]`, a `"` in a quoted key escaped as `\"`.
 */
export function propertyPath(steps: readonly Step[]): string {
  return steps
    .map((step, i) => {
      if (typeof step === "number") return `[${step}]`;
      if (NEEDS_QUOTES.test(step) || step === "") return `["${step.replaceAll('"', '\\"')}"]`;
      return i === 0 ? step : `.${step}`;
    })
    .join("");
}

/** Absent, for a diff: `undefined` and `null` alike, as `sameValue` reads them. */
const isAbsent = (value: unknown): boolean => value === undefined || value === null;

/** Where a walk of one argument writes what it finds, and whether that argument replaces. */
interface Walk {
  out: DetailedDiff;
  replace: boolean;
}

/** Records `kind` at `steps`, as a replacement's kind when the argument replaces. */
function record(walk: Walk, steps: readonly Step[], kind: "ADD" | "DELETE" | "UPDATE"): void {
  walk.out[propertyPath(steps)] = walk.replace ? `${kind}_REPLACE` : kind;
}

/**
 * Records the paths where `news` differs from `olds` below `steps`: an added or removed value where one side is
 * absent, the members of two objects one by one, a keyed list element by element (`diffKeyedList`), and any
 * other change (a scalar, an unknown value, a list compared as a whole) at its own path.
 */
function diffValue(
  walk: Walk,
  steps: readonly Step[],
  olds: unknown,
  news: unknown,
  matchedBy?: string,
): void {
  if (sameValue(olds, news)) return;
  if (isAbsent(olds)) return record(walk, steps, "ADD");
  if (isAbsent(news)) return record(walk, steps, "DELETE");
  if (!isUnknown(news) && isPlainObject(olds) && isPlainObject(news)) {
    const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].sort();
    for (const key of keys) diffValue(walk, [...steps, key], olds[key], news[key]);
    return;
  }
  if (matchedBy !== undefined && diffKeyedList(walk, steps, olds, news, matchedBy)) return;
  // A list of values (tags, CIDR ranges) is compared as a whole, order included: one path, whose elements'
  // differences the engine's display works out itself.
  record(walk, steps, "UPDATE");
}

/** The elements of `list` by their `key` member, or undefined when one has none or two share it. */
function byKey(
  list: unknown,
  key: string,
): Map<string, { index: number; element: Record<string, unknown> }> | undefined {
  if (!Array.isArray(list)) return undefined;
  const elements = new Map<string, { index: number; element: Record<string, unknown> }>();
  for (const [index, element] of list.entries()) {
    const name: unknown = isPlainObject(element) ? element[key] : undefined;
    if (!isPlainObject(element) || typeof name !== "string" || isUnknown(name) || elements.has(name))
      return undefined;
    elements.set(name, { index, element });
  }
  return elements;
}

/**
 * Records the paths of a list whose elements are matched by their `key` member (node pools by name): an element
 * only in `news` is added at its new index, one only in `olds` deleted at its old index (both at one index: that
 * element updated), and a matched element's members compared at its new index (`nodePools[1].nodes`). Returns
 * false, recording nothing, when an element of either list cannot be matched (no known, unique key).
 *
 * The engine's display reads a path by position (the old value at that path in the state, the new one in the
 * inputs), so after pools are reordered or one before another is removed it may pair two different pools;
 * the paths, which `replaceOnChanges` matches (`nodePools[*].instance`), name the changed pool's new index.
 */
function diffKeyedList(
  walk: Walk,
  steps: readonly Step[],
  olds: unknown,
  news: unknown,
  key: string,
): boolean {
  const before = byKey(olds, key);
  const after = byKey(news, key);
  if (!before || !after) return false;
  const added = new Set<number>();
  for (const [name, { index, element }] of after) {
    const old = before.get(name);
    if (old === undefined) {
      added.add(index);
      record(walk, [...steps, index], "ADD");
    } else diffValue(walk, [...steps, index], old.element, element);
  }
  for (const [name, { index }] of before) {
    if (after.has(name)) continue;
    record(walk, [...steps, index], added.has(index) ? "UPDATE" : "DELETE");
  }
  return true;
}

/**
 * The property paths of a kind's diff of `olds` (the state) against `news` (the checked inputs): for each
 * argument of `rules` that `changed.updates` names, the paths below it that differ (`nodePools[1].nodes`,
 * `nodeCidr.address`, `identity.clientSecret`), each a replacement's kind exactly when `changed.replaces` names
 * the argument. An argument the kind found changed where no path differs by this comparison (an unknown list,
 * HA set to its default) is one path, its own name. Arguments outside `rules` (bookkeeping) never appear.
 */
export function propertyDiffsOf(
  olds: Inputs,
  news: Inputs,
  changed: ChangedArguments,
  rules: PathRules,
): PropertyDiffs {
  const diffs = changed.updates.filter((name) => Object.hasOwn(rules, name));
  const detailedDiff: DetailedDiff = {};
  for (const name of diffs) {
    const walk: Walk = { out: {}, replace: changed.replaces.includes(name) };
    diffValue(walk, [name], olds[name], news[name], rules[name]?.matchedBy);
    if (Object.keys(walk.out).length === 0) record(walk, [name], "UPDATE");
    Object.assign(detailedDiff, walk.out);
  }
  return { diffs, detailedDiff };
}
