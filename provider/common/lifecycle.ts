/**
 * The lifecycle steps every kind shares: idempotent create, waiting until settled, and delete-then-wait.
 */
import type { VendorContainerClient } from "../../rest/client";
import { isNotFound, isVendorApiError } from "../../rest/errors";
import {
  DEFAULT_STATE_NAMES,
  isBusyState,
  stateClassOf,
  type StateNames,
  type WaitVerdict,
} from "../../rest/waiter";
import { log, progress } from "./context";

/** A service object as every response carries it. */
export interface ServiceObject {
  metadata: {
    id: string;
    name?: string | null;
    location?: { value?: string | null; code?: string | null } | null;
    tags?: string[] | null;
    creationDate?: string | null;
  };
  status?: { state?: string | null; creationDate?: string | null } | null;
}

/**
 * True when a mutating request may or may not have been applied: its answer was lost (network, timeout),
 * its retries ran out, or a retry met the resource busy. "Busy" is decided once, by the rule of
 * `rest/busy.ts` (a probe saw the resource transitional), and carried as `error.busy`: any other 400 is the
 * service's final word, never a reason to plan and send again.
 */
export function isUncertain(error: unknown): boolean {
  if (!isVendorApiError(error)) return false;
  // A 400 is judged by that rule alone, also when the retries around it ran out (a `deadline` error keeps
  // the last refusal's status and `busy`): a refusal the rule calls final was not applied.
  if (error.status === 400) return error.busy;
  return ["network", "timeout", "deadline"].includes(error.kind) || error.retryable || error.ambiguous;
}

/**
 * True when the object's last known state is transitional or deleting (e.g. the `InCreation` a create
 * answered), by `names` (the client's `stateNames`; default the api-notes' names).
 */
export const isTransitional = (object: ServiceObject, names: StateNames = DEFAULT_STATE_NAMES): boolean =>
  isBusyState(object.status?.state, names);

/** Up to this many POSTs for one create whose earlier attempts had unknown outcomes. */
const MAX_CREATE_ATTEMPTS = 5;

/** An object's creation time (epoch ms) as the service reports it, or undefined. */
export function creationTimeOf(object: ServiceObject): number | undefined {
  const text = object.metadata.creationDate ?? object.status?.creationDate ?? undefined;
  const time = text ? Date.parse(text) : NaN;
  return Number.isFinite(time) ? time : undefined;
}

/** What to do with an object found carrying this resource's creation tag. */
export type FoundVerdict = { verdict: "resume" } | { verdict: "skip" | "refuse"; why: string };

/**
 * Whether an object found by the creation tag is this resource's interrupted create. The tag is released
 * once the engine has recorded the object's id (`tags.ts`), so it is only ever on a create whose id never
 * reached the state; still, it is taken over only where the evidence says so:
 * - still provisioning (a transitional state other than deletion), created within the create timeout or at
 *   an unknown time: resumed;
 * - settled and created within the create timeout: resumed (the interrupted run's object finished meanwhile);
 * - ended in failure, or being deleted: skipped with a line naming it (a failed create is never resumed:
 *   its resource would fail again, and `--replace` must make a new object);
 * - otherwise (settled and older, or of unknown age): refused, before any request that changes anything.
 */
export function judgeFound(
  object: ServiceObject,
  {
    now,
    createTimeoutMs,
    stateNames = DEFAULT_STATE_NAMES,
  }: { now: number; createTimeoutMs: number; stateNames?: StateNames },
): FoundVerdict {
  const state = object.status?.state ?? "";
  const cls = stateClassOf(state, stateNames);
  if (cls === "failed") return { verdict: "skip", why: `it ended ${state}` };
  if (cls === "deleting" || cls === "deleted") return { verdict: "skip", why: `it is ${state}` };
  const created = creationTimeOf(object);
  const young = created !== undefined && now - created <= createTimeoutMs;
  // Still provisioning and of unknown age is taken for an interrupted create; one older than the create
  // timeout is not: it is a create that already timed out (its resource is in some state with the id, as a
  // partial failure), and resuming it as a replacement would let the engine delete it right after.
  if (cls === "transitional" && (created === undefined || young)) return { verdict: "resume" };
  if (young) return { verdict: "resume" };
  return {
    verdict: "refuse",
    why:
      created === undefined
        ? `it is ${state || "in an unknown state"} and the service does not say when it was created`
        : `it is ${state || "in an unknown state"} and was created longer ago than the create timeout ` +
          `(${formatMinutes(createTimeoutMs)})`,
  };
}

const formatMinutes = (ms: number): string => `${Math.round(ms / 60_000)}m`;

/** `kaas-0001 (Active, created 2026-11-26T10:00:00.000Z)`: how refusals name an object. */
function describeFound(object: ServiceObject): string {
  const created = creationTimeOf(object);
  const when = created === undefined ? "creation time unknown" : `created ${new Date(created).toISOString()}`;
  return `${object.metadata.id} (${object.status?.state ?? "state unknown"}, ${when})`;
}

/**
 * What the stack's state held for the resource when its program started, as the SDK class read it from the
 * engine (`sdk/persisted.ts`) and passed in `trackedId`: the id of the object the state tracks (a create is
 * then its replacement), `null` when the state tracks none (a new resource, a create interrupted before the
 * engine recorded its id, or one the state lost), `undefined` when unknown (the state could not be read).
 */
export type Tracked = string | null | undefined;

/** Whether `object` carries `tag`. */
const carries = (object: ServiceObject, tag: string): boolean => (object.metadata.tags ?? []).includes(tag);

/**
 * What a create makes of the objects its lookup found (`findCreated`: every object not being deleted that
 * carries this resource's creation tag or its owner tag): the object to resume, or undefined to create one.
 *
 * - The object the state tracks (`tracked`: this create is its replacement) is never resumed, whatever tags it
 *   still carries; the engine deletes it once the replacement exists. Nor is one carrying this create's tag
 *   that is older than it (`olderThanTracked`).
 * - An object carrying this create's tag is a create whose id never reached the state: the tag is released only
 *   after the engine has recorded the id (`sdk/persisted.ts`). It is judged by `judgeFound`: resumed while the
 *   evidence says it is an interrupted create (still provisioning, or settled within the create timeout), named
 *   and left alone when it failed, refused otherwise.
 * - An object naming this resource as owner without that tag was recorded in some state: when the state
 *   tracks no object (`tracked` null or unknown, and no replacement seen by `diff`), the state lost track of it
 *   (`pulumi state delete`, a state restored from an older copy; or another backend holds a stack of the same
 *   project and stack names), and the create stops before any request that
 *   changes anything, naming it and `adoptId`. In a replacement it is another leftover of this resource, named
 *   in a line and left alone: a replacement makes a new object.
 */
export function judgeLookup<T extends ServiceObject>(
  found: readonly T[],
  args: {
    what: string;
    noun: string;
    /** This create's creation tag. */
    tag: string;
    /** This resource's owner tag, when it has one. */
    owner?: string;
    /** See `Tracked`; a string means this create replaces that object. */
    tracked: Tracked;
    now: number;
    createTimeoutMs: number;
    stateNames?: StateNames;
  },
): T | undefined {
  const candidates = found.filter((object) => object.metadata.id !== args.tracked);
  const interrupted = candidates.filter((object) => carries(object, args.tag));
  const recorded = candidates.filter((object) => !carries(object, args.tag));
  const replacing = typeof args.tracked === "string";
  if (recorded.length > 0 && !replacing) {
    const first = recorded[0];
    const others = [...recorded.slice(1), ...interrupted].map(describeFound);
    const owner = args.owner === undefined ? "" : ` (tag ${args.owner})`;
    throw new Error(
      `${args.what}: found ${args.noun} ${describeFound(first)} naming this resource as its owner${owner}, ` +
        "but this stack's state does not track it: it was removed from the state (pulumi state delete), the " +
        "state was restored from an older copy, or another state backend holds a stack of the same name" +
        (args.tracked === undefined ? " (the state could not be read to tell)" : "") +
        `. Nothing was created. If it is this resource's ${args.noun}, set adoptId: "${first.metadata.id}" to ` +
        `track it again; otherwise delete it` +
        (others.length > 0 ? `. Also found: ${others.join(", ")}.` : "."),
    );
  }
  for (const object of recorded) {
    log(
      args.what,
      `${args.noun} ${describeFound(object)} also names this resource as its owner but this stack's state ` +
        "does not track it: left alone; delete it if no stack tracks it",
    );
  }
  const judged = interrupted.map((object) => ({
    object,
    judgement: olderThanTracked(object, found, args.tracked) ?? judgeFound(object, args),
  }));
  // Prefer one still provisioning, then the youngest: an interrupted run leaves one object, but a service
  // that was asked twice may show two.
  const resumable = judged
    .filter(({ judgement }) => judgement.verdict === "resume")
    .map(({ object }) => object)
    .sort(
      (a, b) =>
        Number(isTransitional(b, args.stateNames)) - Number(isTransitional(a, args.stateNames)) ||
        (creationTimeOf(b) ?? 0) - (creationTimeOf(a) ?? 0),
    );
  for (const { object, judgement } of judged) {
    if (judgement.verdict === "skip") {
      log(
        args.what,
        `${args.noun} ${describeFound(object)} carries this resource's creation tag but ${judgement.why}: ` +
          "not resumed; delete it if no stack tracks it",
      );
    }
  }
  if (resumable.length > 0) return resumable[0];
  const refused = judged.find(({ judgement }) => judgement.verdict === "refuse");
  if (refused && refused.judgement.verdict === "refuse") {
    const id = refused.object.metadata.id;
    throw new Error(
      `${args.what}: found ${args.noun} ${describeFound(refused.object)} carrying this resource's creation ` +
        `tag ${args.tag}, but nothing shows it is an interrupted create of this stack: ` +
        `${refused.judgement.why}. It is not taken over and nothing was created. If it is this resource's ` +
        `${args.noun}, set adoptId: "${id}" to adopt it; otherwise delete it, or remove that tag from it.`,
    );
  }
  return undefined;
}

/**
 * A replacement's verdict on an object carrying this resource's creation tag that was created before the object
 * the state tracks (the one being replaced): `skip`, since an interrupted create of this replacement cannot be
 * older than the object it replaces. Such an object is the replaced one's predecessor whose tag was never
 * released (its release failed, or the state could not be read to release it), which a replacement killed after
 * the engine recorded its new id leaves in the state for deletion: resumed, it would be the new object and the
 * engine would then delete it, leaving the state naming an object that no longer exists. Undefined (no verdict)
 * when this is no replacement, or either creation time is unknown.
 */
function olderThanTracked(
  object: ServiceObject,
  found: readonly ServiceObject[],
  tracked: Tracked,
): FoundVerdict | undefined {
  if (typeof tracked !== "string") return undefined;
  const replaced = found.find((candidate) => candidate.metadata.id === tracked);
  const replacedAt = replaced && creationTimeOf(replaced);
  const createdAt = creationTimeOf(object);
  if (replacedAt === undefined || createdAt === undefined || createdAt > replacedAt) return undefined;
  return { verdict: "skip", why: `it was created before ${tracked}, which this create replaces` };
}

/**
 * Idempotent create: look first for this resource's interrupted create (an earlier run may have
 * been killed after the service accepted it); POST; when the POST's fate is unknown (any 5xx, a timeout, a
 * dropped connection) look again before sending it again. `lookup` is `findCreated`, which does not depend
 * on what the service does with filters; what it finds is judged by `judgeLookup`. `resumed` says
 * the object was found rather than answered by this run's POST.
 */
export async function createIdempotently<T extends ServiceObject>(args: {
  what: string;
  noun: string;
  tag: string;
  owner?: string;
  /** What the state tracks (see `Tracked`), asked only when the lookup finds an object of this resource. */
  tracked: () => Promise<Tracked>;
  lookup: () => Promise<T[]>;
  post: () => Promise<T>;
  until: number;
  createTimeoutMs: number;
  /** The client's state names, by which found objects are judged; default the api-notes' names. */
  stateNames?: StateNames;
}): Promise<{ object: T; resumed: boolean }> {
  const own = async () => {
    const found = await args.lookup();
    // Nothing found needs no state: the state is read (on the plugin path, through the CLI) only when needed.
    if (found.length === 0) return undefined;
    return judgeLookup(found, { ...args, tracked: await args.tracked(), now: Date.now() });
  };
  const existing = await own();
  if (existing) {
    log(args.what, `resuming the creation of ${existing.metadata.id} started by an earlier run`);
    return { object: existing, resumed: true };
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const created = await args.post();
      log(args.what, `creation accepted as ${created.metadata.id}`);
      return { object: created, resumed: false };
    } catch (error) {
      if (!isVendorApiError(error) || !error.ambiguous) throw error;
      log(args.what, `the create request's outcome is unknown (${error.message}); checking before retrying`);
      // Look even when no attempt is left: the last POST may have created the object, and an error without
      // an id would orphan it (dynamic-provider notes: partial failure).
      const found = await own();
      if (found) {
        log(args.what, `the create request went through: ${found.metadata.id}`);
        return { object: found, resumed: true };
      }
      if (Date.now() > args.until || attempt >= MAX_CREATE_ATTEMPTS) throw error;
    }
  }
}

/** Every object of `items` that `ours` accepts and that is not being deleted; `filterApplied` tells whether the filter held. */
async function collectOurs<T extends ServiceObject>(
  items: AsyncIterable<T>,
  ours: (item: T) => boolean,
  matchesFilter: (item: T) => boolean,
  names: StateNames,
): Promise<{ found: T[]; filterApplied: boolean }> {
  const found: T[] = [];
  let filterApplied = true;
  for await (const item of items) {
    if (!matchesFilter(item)) filterApplied = false;
    const cls = stateClassOf(item.status?.state, names);
    if (ours(item) && cls !== "deleting" && cls !== "deleted") found.push(item);
  }
  return { found, filterApplied };
}

/**
 * Every readable item of one list endpoint across pages, with `filter` as the `filter` query parameter when
 * given (the REST client's `iterateKaas`, `iterateBackups`, `iterateRegistries`, bound to their scope, with
 * `onUnreadable` as their sink). An item the client cannot read is skipped and its line goes to
 * `onUnreadable`, standard error when absent: a lookup never fails for another object's sake.
 */
export type ListSource<T> = (
  filter: string | undefined,
  onUnreadable?: (line: string) => void,
) => AsyncIterable<T>;

/** A string as a filter literal: double-quoted, with JSON escapes (api-notes "Envelopes"). */
export const filterLiteral = (value: string): string => JSON.stringify(value);

/**
 * Clients whose service answered a filtered list with 400: their later lists skip the filter instead of
 * paying a refused request first. Keyed by client (one per settings in the provider process, so per service
 * and process); forgetting is never wrong, only slower, and an unfiltered list is always right.
 */
const filtersRefused = new WeakSet<object>();

/** True when `error` is a final 400 answer (a list carrying a filter the service refuses), not a busy one. */
const isBadRequest = (error: unknown): boolean =>
  isVendorApiError(error) && error.kind === "http" && error.status === 400 && !error.busy;

/**
 * The items of `list` narrowed by `filter` where the service applies it; a superset of the matching items,
 * so the caller checks each item itself.
 *
 * The filter is a hint, never trusted: the grammar is documented in prose only, and what `eq` does on an
 * array field (`metadata.tags`) or how an unsupported filter is answered is not said (api-notes "What the
 * published interface does not show"). A service may match an array element, compare the whole array,
 * ignore the filter (every object comes back, hence the caller's check) or refuse it with a 400: then this
 * lists without the filter, and does so straight away for every later call with the same `api` client.
 */
export async function* listNarrowed<T>(
  api: object,
  list: ListSource<T>,
  filter: string,
  what: string,
): AsyncGenerator<T, void, undefined> {
  const skipped = (line: string) => log(what, line);
  if (!filtersRefused.has(api)) {
    try {
      yield* list(filter, skipped);
      return;
    } catch (error) {
      if (!isBadRequest(error)) throw error;
      filtersRefused.add(api);
      log(what, "the service refuses the list filter (400); listing without filters from now on");
    }
  }
  // Items already yielded before a refusal on a later page come again: callers look for one item, so a
  // repeat costs nothing.
  yield* list(undefined, skipped);
}

/**
 * Characters that a filter literal may not carry safely: the grammar is documented in prose only
 * (api-notes "Envelopes"), and a service that splits criteria on `;` or arguments on `,` before reading the
 * quotes would misread or refuse such a filter. A value with one of them is never sent in a filter.
 */
const UNSAFE_IN_FILTER = /[;(),"\\]/;

/** True when `value` can go into a filter literal under any reading of the grammar. */
export const safeInFilter = (value: string): boolean => !UNSAFE_IN_FILTER.test(value);

/**
 * The objects not being deleted that carry this resource's creation tag `tag` or its owner tag `owner`. Every
 * object the package creates carries both, so one filter finds this resource's interrupted creates and the
 * objects a state recorded. The tags are confirmed on each listed object, so the answer is right whatever the
 * service does with filters (see `listNarrowed`), and the number of requests does not grow with the number of
 * objects in the project where the service applies filters:
 *
 * 1. `metadata.tags:eq(owner)` (or `eq(tag)` when the owner tag cannot go into a filter, `safeInFilter`) finds
 *    them in one request where `eq` matches an array element (the documented reading). Where an answer holds
 *    an object without the tag, the service ignored the filter and that answer was the whole list: it settles
 *    the question. Where the service refuses filters, the whole list is read once, unfiltered, and later
 *    lookups of the same client skip filters.
 * 2. Otherwise `metadata.name:eq(name)`: a scalar field, so every reading that applies filters narrows to
 *    the objects of that name. Under a whole-array reading the tag filter misses an object that carries
 *    other tags (the owner tag, user tags); the name does not. A name with a character that a filter cannot
 *    carry safely is not sent, and a refusal of the name filter is this lookup's alone.
 *
 * Not found under a whole-array reading: an object whose name changed since it was created (the whole list
 * would find it, at a cost that grows with the project; it is read only where filters are known not to work).
 */
export async function findCreated<T extends ServiceObject>(args: {
  /** How progress lines name the resource. */
  what: string;
  /** The client, which keys the memory of a service refusing filters. */
  api: object;
  list: ListSource<T>;
  /** The creation tag of this create. */
  tag: string;
  /** The resource's owner tag, when it has one. */
  owner?: string;
  /** The `metadata.name` the create sends. */
  name: string;
  /** The client's state names, by which deletions are recognised; default the api-notes' names. */
  stateNames?: StateNames;
}): Promise<T[]> {
  const { what, api, list, tag, owner, name, stateNames = DEFAULT_STATE_NAMES } = args;
  const ours = (item: T) => carries(item, tag) || (owner !== undefined && carries(item, owner));
  const filterTag = owner !== undefined && safeInFilter(owner) ? owner : tag;
  const byTag = await collectOurs(
    listNarrowed(api, list, `metadata.tags:eq(${filterLiteral(filterTag)})`, what),
    ours,
    (item) => carries(item, filterTag),
    stateNames,
  );
  // Found; or the answer was the whole list (the filter ignored, or refused and then left off).
  if (byTag.found.length > 0 || !byTag.filterApplied || filtersRefused.has(api)) return byTag.found;
  if (!safeInFilter(name)) return [];
  try {
    const byName = await collectOurs(
      list(`metadata.name:eq(${filterLiteral(name)})`, (line) => log(what, line)),
      ours,
      (item) => item.metadata.name === name,
      stateNames,
    );
    return byName.found;
  } catch (error) {
    if (!isBadRequest(error)) throw error;
    log(what, "the service refuses the list filter on the name (400); the tag filter's answer stands");
    return [];
  }
}

/**
 * Waits until the object is settled (`Active`...), or fails with the service's reason. `afterMutation`:
 * called right after a create or update, so the first poll waits one interval.
 */
export function waitSettled<T extends ServiceObject>(
  api: VendorContainerClient,
  observe: () => Promise<T | undefined>,
  what: string,
  id: string,
  path: string,
  until: number,
  afterMutation = false,
): Promise<T> {
  return api.waitUntilSettled(observe, {
    what: `${what} (${id})`,
    path,
    deadline: until,
    onProgress: progress,
    afterMutation,
  });
}

/**
 * Deletes an object and waits until it is gone. An object already gone (404 or `Deleted`) is a success;
 * one that is busy is first waited for, since the service refuses a DELETE while it is transitional.
 */
export async function deleteAndWait<T extends ServiceObject>(
  api: VendorContainerClient,
  args: {
    what: string;
    id: string;
    path: string;
    until: number;
    find: () => Promise<T | undefined>;
    remove: () => Promise<void>;
    accepted?: string;
    /** Throws when the object may not be deleted; called with the object as first found, before anything is sent. */
    guard?: (live: T) => void;
  },
): Promise<void> {
  const live = await args.find();
  if (!live) return;
  args.guard?.(live);
  const cls = stateClassOf(live.status?.state, api.stateNames);
  if (cls === "transitional") {
    await api.waitUntilSettled(args.find, {
      what: `${args.what} (${args.id})`,
      path: args.path,
      deadline: args.until,
      onProgress: progress,
      judge: (t, names): WaitVerdict => {
        const s = t.status?.state ?? "";
        return isBusyState(s, names) ? { kind: "pending", state: s } : { kind: "done" };
      },
    });
  }
  let removed = false;
  if (cls !== "deleting") {
    try {
      await args.remove();
      removed = true;
      log(args.what, args.accepted ?? `deletion of ${args.id} accepted`);
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
  }
  await api.waitUntilGone(args.find, {
    what: `${args.what} (${args.id})`,
    path: args.path,
    deadline: args.until,
    onProgress: progress,
    afterMutation: removed,
  });
}
