/**
 * The description of one resource kind, and what derives from it. A kind is described once, argument by
 * argument: what changing it does (replace, update in place, ignore) and how `check` validates it. The list
 * of accepted arguments, the create-only arguments and the diff table are all read from that one table.
 *
 * Light on purpose: `check` and `diff` run in every preview and load nothing of the REST client.
 */
import {
  Problems,
  bool,
  int,
  metadata,
  network,
  oneOf,
  projectId,
  rejectUnknownProperties,
  str,
  timeouts,
  type CheckFailure,
  type Inputs,
} from "./check";
import type { DeclaredLimits } from "./limits";
import {
  diffByTable,
  knownPartsDiffer,
  withUpdates,
  type ChangeEffect,
  type DiffResult,
  type DiffTable,
} from "./diff";
import type { Timeouts } from "./timeouts";
import { isUnknown } from "./unknown";
import { creationTokenOf, inputsOf } from "./resource";
import { keysOf, recordOf } from "./typed";

/** The bookkeeping arguments every created kind carries besides its own: set by the SDK class and `check`. */
export type Bookkeeping = "creationScope" | "creationToken" | "trackedId";

/** The argument names of a kind whose user-facing arguments are `I`. */
export type ArgumentName<I> = Extract<keyof I, string> | Bookkeeping;

/**
 * The inputs of a kind whose user-facing arguments are `I` once `check` accepted them: `projectId` is set
 * (the argument or the configured default) and `creationScope` is what the SDK class set. In a preview any
 * value may still be the unknown placeholder; create, update, read and delete only ever see known values.
 */
export type CheckedArguments<I> = Omit<I, "projectId"> & { projectId: string; creationScope?: string };

/**
 * The checked inputs of a created kind: its checked arguments, the creation token `check` computed, and what
 * the state tracked when the program started (`trackedId`, set by the SDK class).
 */
export type Checked<I> = CheckedArguments<I> & { creationToken: string; trackedId?: string | null };

/** The argument names of a kind whose checked inputs are `C`: the keys of its argument table. */
export type ArgumentKey<C> = Extract<keyof C, string>;

/** What `check` hands back: the checked inputs, meaningful once `failures` is empty. */
export interface CheckResult<C> {
  inputs: C;
  failures: CheckFailure[];
}

/**
 * The one place a bag of inputs is taken for the checked shape `C`. Only bags `check` validated come here:
 * its own result, and the inputs and state the engine hands back, which are that result (state adds the
 * computed outputs, dropped first).
 */
function asChecked<C extends Inputs>(validated: Inputs): C {
  return validated as C;
}

/**
 * The checked inputs within a state the engine hands back (`olds` of update, `props` of read and delete):
 * what an earlier `check` returned, without the computed outputs and `__provider`.
 */
export function checkedInputsOf<C extends Inputs>(state: Inputs, computed: readonly string[]): C {
  return asChecked<C>(inputsOf(state, computed));
}

/** What `check` knows besides the inputs: injected so `check` stays pure. */
export interface CheckContext {
  /** `vendor:projectId` / `VENDOR_PROJECT_ID`, used when `projectId` is not set. */
  defaultProjectId?: string;
  /** Current time (epoch ms), for arguments that must lie in the future. */
  now?: number;
  /** The state backend's identity (`backendIdentity`), a seed of the creation token. Default: none. */
  backend?: string;
  /**
   * The account's limits as `vendor:limits` / `VENDOR_LIMITS` declares them (`declaredLimits`), which a
   * cluster's `check` enforces. Default: none declared, so only the service enforces them (spec §8).
   */
  limits?: DeclaredLimits;
  /**
   * What is wrong with the provider's settings (`currentSettingsProblems`), reported as failures of the whole
   * resource, so that a preview refuses a setting every call of the `up` would refuse. Default: none.
   */
  settingsProblems?: readonly string[];
}

/** What an argument's check sees: the old and new inputs, the inputs being normalised, the problems. */
export interface CheckScope {
  /** The previous inputs (`{}` on create). */
  olds: Inputs;
  /** The inputs as the program declared them. */
  news: Inputs;
  /** The checked inputs, where defaults are written. */
  inputs: Inputs;
  problems: Problems;
  context: CheckContext;
}

/** One argument of a kind. */
export interface ArgumentRule {
  /** What changing it does: `replace` makes it create-only. */
  change: ChangeEffect;
  /**
   * For a list of objects whose order means nothing: the member that identifies an element (a node pool's
   * `name`), so that the property paths of a diff (propertyDiff.ts) name a changed element by its index in the
   * new list. Default: none, a list is compared as a whole.
   */
  matchedBy?: string;
  /**
   * Validates the value (`value` is `news[property]`), adding every problem to `scope.problems`. Rules that
   * tie several arguments together sit on the first of them; checks run in the order of the table, so the
   * failures come in that order.
   */
  check?: (value: unknown, property: string, scope: CheckScope) => void;
}

/** Every argument of a kind and its rule; keyed by the kind's argument names, so none is missing or extra. */
export type ArgumentTable<K extends string> = Record<K, ArgumentRule>;

/** The arguments of a kind, in the order of its table (the order `check` names them in its failures). */
export function argumentNames<K extends string>(table: ArgumentTable<K>): K[] {
  return keysOf(table);
}

/** The diff table: the effect of changing each argument. */
export function diffTableOf<K extends string>(table: ArgumentTable<K>): DiffTable<K> {
  return recordOf(argumentNames(table), (key) => table[key].change);
}

/**
 * `check` of a kind: unknown arguments first, then each argument's check in table order, then the creation
 * token from the resource's scope and the backend (`creationTokenOf`). Every problem is reported at once.
 */
export function checkArguments<C extends Inputs>(
  table: ArgumentTable<ArgumentKey<C>>,
  olds: Inputs,
  news: Inputs,
  context: CheckContext,
  options: { creationToken: boolean } = { creationToken: true },
): CheckResult<C> {
  const problems = new Problems();
  for (const problem of context.settingsProblems ?? []) problems.add("", problem);
  const inputs: Inputs = { ...news };
  // `replaceOnChanges` is a resource option the SDK class passes as an input, not an argument: the list of
  // arguments in the refusal of an unknown one stays the kind's own.
  const { replaceOnChanges, ...declared } = news;
  rejectUnknownProperties(declared, argumentNames(table), problems);
  checkReplaceOnChanges(replaceOnChanges, argumentNames(table), problems);
  const scope: CheckScope = { olds, news, inputs, problems, context };
  for (const key of argumentNames(table)) table[key].check?.(news[key], key, scope);
  // A resource already in the state keeps its token: only a create sends it, and the engine checks every
  // create's inputs (a new resource's, a replacement's) with no old inputs, so the token a replacement sends is
  // always computed anew. Keeping it spares the state a change on every run of an existing resource.
  if (options.creationToken) {
    inputs.creationToken =
      typeof olds.creationToken === "string" && olds.creationToken !== ""
        ? olds.creationToken
        : creationTokenOf(inputs, context.backend);
  }
  return { inputs: asChecked<C>(inputs), failures: problems.failures };
}

/**
 * `diff` of a kind: its table, plus the arguments its bespoke rules find changed (`extraChanges`, which
 * throws for a change the service cannot make). Pure.
 */
export function diffArguments<K extends string>(
  table: ArgumentTable<K>,
  olds: Inputs,
  news: Inputs,
  extraChanges?: (olds: Inputs, news: Inputs) => string[],
): DiffResult {
  const result = diffByTable(olds, news, diffTableOf(table));
  const diffed = withUpdates(result, [
    ...(extraChanges?.(olds, news) ?? []),
    ...(scopeRenamed(olds, news) ? ["creationScope"] : []),
  ]);
  return withReplaceOnChanges(diffed, olds, news);
}

/**
 * Whether the resource's scope (`<project>/<stack>/<name>`) changed since the state was written: the stack or
 * project was renamed (`pulumi stack rename` rewrites the state's URNs, so the engine hands the old outputs
 * to the renamed resource), or the resource was renamed with an alias. An update in place then records the
 * new scope in the state and, on the object, the owner tag (the object's owner must name this stack for its
 * delete to go through). A state without a scope (written before it existed) is no change.
 */
function scopeRenamed(olds: Inputs, news: Inputs): boolean {
  const [before, after] = [olds.creationScope, news.creationScope];
  return typeof before === "string" && typeof after === "string" && !isUnknown(after) && before !== after;
}

/** The bookkeeping arguments, which `replaceOnChanges` may not name: no change to them is ever a change. */
const NOT_REPLACEABLE: readonly string[] = ["creationScope", "creationToken", "trackedId"];

/**
 * Validates the `replaceOnChanges` input, which the SDK class sets from the resource option of that name:
 * top-level argument names of the kind, or `"*"` for all. The engine applies the option only to the property
 * names a provider's diff reports as changed, and the Node.js dynamic-provider host reports none (it sends
 * `changes` and `replaces` only), so the provider's own `diff` honours it (`withReplaceOnChanges`). A nested
 * path (`nodePools[0].nodes`) is refused rather than widened to its argument.
 */
export function checkReplaceOnChanges(
  value: unknown,
  argumentNames: readonly string[],
  problems: Problems,
): void {
  if (value === undefined || value === null || isUnknown(value)) return;
  if (!Array.isArray(value)) {
    problems.add("replaceOnChanges", `must be a list of argument names, got ${JSON.stringify(value)}`);
    return;
  }
  const names = argumentNames.filter((name) => !NOT_REPLACEABLE.includes(name));
  value.forEach((entry, i) => {
    if (isUnknown(entry) || entry === "*" || (typeof entry === "string" && names.includes(entry))) return;
    problems.add(
      `replaceOnChanges[${i}]`,
      `${JSON.stringify(entry)} is not an argument of this resource; name top-level arguments ` +
        `(${names.join(", ")}) or "*"`,
    );
  });
}

/**
 * `result` with every changed argument that `news.replaceOnChanges` names (or all, for `"*"`) among the
 * replacements. As for the table's own replacements, a change whose new value is still unknown (preview)
 * does not replace by itself.
 */
export function withReplaceOnChanges(result: DiffResult, olds: Inputs, news: Inputs): DiffResult {
  const named = news.replaceOnChanges;
  if (!Array.isArray(named) || named.length === 0) return result;
  const replaces = [...result.replaces];
  for (const key of result.updates) {
    if (replaces.includes(key) || !(named.includes("*") || named.includes(key))) continue;
    if (knownPartsDiffer(olds[key], news[key])) replaces.push(key);
  }
  return { ...result, replaces };
}

/** The check of an argument (see `ArgumentRule.check`). */
export type ArgumentCheck = NonNullable<ArgumentRule["check"]>;

/** A string; `required` reports a missing or empty value. */
export const aString =
  (opts: Parameters<typeof str>[3] = {}): ArgumentCheck =>
  (value, property, { problems }) => {
    str(value, property, problems, opts);
  };

/** An integer within bounds. */
export const anInteger =
  (opts: Parameters<typeof int>[3] = {}): ArgumentCheck =>
  (value, property, { problems }) => {
    int(value, property, problems, opts);
  };

/** An optional boolean. */
export const aBoolean: ArgumentCheck = (value, property, { problems }) => {
  bool(value, property, problems);
};

/** One of a fixed set of strings. */
export const oneOfValues =
  (allowed: readonly string[]): ArgumentCheck =>
  (value, property, { problems }) => {
    oneOf(value, property, allowed, problems);
  };

/** `timeouts {create, update, delete}`, each a duration. */
export const timeoutsCheck: ArgumentCheck = (value, property, { problems }) =>
  timeouts(value, property, problems);

/** `projectId`, defaulting to the configured project (written into the checked inputs). */
export const projectIdCheck: ArgumentCheck = (_value, _property, { inputs, context, problems }) =>
  projectId(inputs, context.defaultProjectId, problems);

/** The metadata every service object carries (`name`, `location` and `tags`), checked together. */
export const metadataCheck: ArgumentCheck = (_value, _property, { news, problems }) =>
  metadata(news, problems);

/** `preset` versus an existing VPC and subnet, checked together (sets the `preset` default). */
export const networkCheck: ArgumentCheck = (_value, _property, { news, inputs, problems }) =>
  network(news, inputs, problems);

/**
 * One argument in a kind's argument schema: its rule and, at the type level only, its value type `T` and
 * whether a program must set it (`R`). A kind's schema is an object of these keyed by argument name, each
 * property documented with the argument's TSDoc: the kind's input type (`ArgumentsOf`), and through it the
 * SDK class's arguments and outputs, carry that documentation over, and its argument table is the schema
 * plus the bookkeeping rows (`withBookkeeping`). Build one with `optional`, `required`, or a constructor
 * whose check derives from the type (`text`, `flag`, `choice`).
 */
export interface ArgumentSpec<T, R extends boolean = boolean> extends ArgumentRule {
  /** Type level only, never set: the argument's value type. */
  readonly value?: T;
  /** Whether a program must set the argument; its check reports a missing one. */
  readonly required: R;
}

/** A kind's argument schema: every user-facing argument, by name. */
export type ArgumentSchema = Record<string, ArgumentSpec<unknown>>;

/** The value type of an argument of a schema. */
type ValueOf<A> = A extends ArgumentSpec<infer T> ? T : never;

/** The names of a schema's arguments that a program must set. */
type RequiredName<S> = { [K in keyof S]: S[K] extends ArgumentSpec<unknown, true> ? K : never }[keyof S];

/**
 * The input type of a kind, from its argument schema: required arguments as required properties, the rest
 * optional, each documented with the schema property's TSDoc (mapped types keep it).
 */
export type ArgumentsOf<S> = { [K in keyof S as K extends RequiredName<S> ? K : never]: ValueOf<S[K]> } & {
  [K in keyof S as K extends RequiredName<S> ? never : K]?: ValueOf<S[K]>;
};

/** An optional argument of type `T`; its check, if any, is the rule's. */
export const optional = <T>(rule: ArgumentRule): ArgumentSpec<T, false> => ({ ...rule, required: false });

/**
 * A required argument of type `T`. Its check reports a missing value: the rule's, or the check of the
 * argument that checks it together with others (`metadataCheck` for `location`).
 */
export const required = <T>(rule: ArgumentRule): ArgumentSpec<T, true> => ({
  ...rule,
  required: true,
});

/** A string argument, checked as one (`str`): `required` and the pattern options are `str`'s. */
export function text<O extends Parameters<typeof str>[3] = Record<never, never>>(
  change: ChangeEffect,
  opts?: O,
): ArgumentSpec<string, O extends { required: true } ? true : false>;
export function text(change: ChangeEffect, opts: Parameters<typeof str>[3] = {}): ArgumentSpec<string> {
  return { change, check: aString(opts), required: opts.required === true };
}

/** An optional boolean argument, checked as one. */
export const flag = (change: ChangeEffect): ArgumentSpec<boolean, false> => ({
  change,
  check: aBoolean,
  required: false,
});

/** An optional argument that takes one of `values`, its type their union, checked against them. */
export const choice = <const V extends string>(
  change: ChangeEffect,
  values: readonly V[],
): ArgumentSpec<V, false> => ({ change, check: oneOfValues(values), required: false });

/**
 * `trackedId`, which the SDK class sets: the id of the object the stack's state tracked for the resource when
 * the program started, or null (see `Tracked` in lifecycle.ts). Unset in a preview.
 */
function trackedIdCheck(value: unknown, property: string, { problems }: CheckScope): void {
  if (value === null || value === undefined || isUnknown(value)) return;
  str(value, property, problems);
}

/** The rules of the bookkeeping arguments (`Bookkeeping`): set by the SDK class and by `check`, never compared. */
export const BOOKKEEPING = {
  creationScope: { change: "ignore", check: aString() },
  creationToken: { change: "ignore" },
  trackedId: { change: "ignore", check: trackedIdCheck },
} satisfies ArgumentTable<Bookkeeping>;

/** A kind's argument table: its schema's rules, in the schema's order, then the bookkeeping rows. */
export const withBookkeeping = <S extends ArgumentSchema>(
  schema: S,
): ArgumentTable<Extract<keyof S, string> | Bookkeeping> => ({ ...schema, ...BOOKKEEPING });

/**
 * The arguments that take an existing object over instead of creating one. The engine's `import` does not work
 * for dynamic resources, so adoption is an argument.
 */
const ADOPTION_ARGUMENTS = {
  /**
   * Adopt this existing object (its id in the service, as `kaasId`, `backupId` or `registryId` show it) instead
   * of creating one. The declared arguments must match the live object. Changing it later has no effect.
   */
  adoptId: text("ignore"),
  /**
   * Confirms the adoption of an object that another resource created or adopted: the `<project>/<stack>/<name>`
   * its owner tag names, as the refusal of `adoptId` quotes it. Without it, `adoptId` refuses such an object,
   * since both stacks would then act on it. Changing it later has no effect.
   */
  adoptFromScope: text("ignore"),
};

/**
 * The arguments every kind that creates service objects (clusters, backups, registries) ends its schema with:
 * its deadlines and the adoption of an existing object.
 */
export const CREATED_OBJECT_ARGUMENTS = {
  /**
   * Deadlines of create, update and delete. Each one left out is the resource's default, which differs by
   * kind (a cluster takes far longer to provision than a backup) and which its class's constructor states.
   */
  timeouts: optional<Timeouts>({ change: "update", check: timeoutsCheck }),
  ...ADOPTION_ARGUMENTS,
};

// The arguments every kind declares alike, each documented by the kind that declares it (`projectId: PROJECT_ID`).

/** `projectId`: the project of the object, the configured one when it is not set (`projectIdCheck`). Replaces. */
export const PROJECT_ID = optional<string>({ change: "replace", check: projectIdCheck });

/** The `name` of a service object: `metadataCheck` checks name, location and tags together. Updates in place. */
export const OBJECT_NAME = required<string>({ change: "update", check: metadataCheck });

/** The `location` of a service object (checked with its name, `OBJECT_NAME`). Replaces. */
export const OBJECT_LOCATION = required<string>({ change: "replace" });

/** The `tags` of a service object (checked with its name, `OBJECT_NAME`). Updates in place. */
export const OBJECT_TAGS = optional<string[]>({ change: "update" });
