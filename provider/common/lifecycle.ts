/**
 * The lifecycle steps every kind shares: idempotent create, waiting until settled, and delete-then-wait.
 */
import type { VendorContainerClient } from "../../rest/client";
import { isNotFound, isVendorApiError } from "../../rest/errors";
import { TRANSITIONAL_STATES, type WaitVerdict } from "../../rest/waiter";
import { log, progress } from "./context";

/** A service object as every response carries it. */
export interface ServiceObject {
  metadata: { id: string; tags?: string[] | null };
  status?: { state?: string | null } | null;
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

/** True when the object's last known state is transitional (e.g. the `InCreation` a create answered). */
export const isTransitional = (object: ServiceObject): boolean =>
  TRANSITIONAL_STATES.has(object.status?.state ?? "");

/** Up to this many POSTs for one create whose earlier attempts had unknown outcomes. */
const MAX_CREATE_ATTEMPTS = 5;

/**
 * Idempotent create (Kaas issue): look the object up by its creation tag first (an earlier run may have
 * been interrupted after the service accepted it); POST; when the POST's fate is unknown (timeout, dropped
 * connection, gateway error) look again before sending it again. `lookup` is `findCreated`, which does not
 * depend on what the service does with filters.
 */
export async function createIdempotently<T extends ServiceObject>(args: {
  what: string;
  lookup: () => Promise<T | undefined>;
  post: () => Promise<T>;
  until: number;
}): Promise<T> {
  const existing = await args.lookup();
  if (existing) {
    log(args.what, `resuming the creation of ${existing.metadata.id} started by an earlier run`);
    return existing;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const created = await args.post();
      log(args.what, `creation accepted as ${created.metadata.id}`);
      return created;
    } catch (error) {
      if (!isVendorApiError(error) || !error.ambiguous) throw error;
      log(args.what, `the create request's outcome is unknown (${error.message}); checking before retrying`);
      // Look even when no attempt is left: the last POST may have created the object, and an error without
      // an id would orphan it (dynamic-provider notes: partial failure).
      const found = await args.lookup();
      if (found) return found;
      if (Date.now() > args.until || attempt >= MAX_CREATE_ATTEMPTS) throw error;
    }
  }
}

/** The first object of `items` carrying `tag` that is not being deleted. */
export async function findByTag<T extends ServiceObject>(
  items: AsyncIterable<T>,
  tag: string,
): Promise<T | undefined> {
  for await (const item of items) {
    const state = item.status?.state ?? "";
    if ((item.metadata.tags ?? []).includes(tag) && state !== "Deleting" && state !== "Deleted") return item;
  }
  return undefined;
}

/**
 * Every item of one list endpoint across pages, with `filter` as the `filter` query parameter when given
 * (the REST client's `iterateKaas`, `iterateBackups`, `iterateRegistries`, bound to their scope).
 */
export type ListSource<T> = (filter: string | undefined) => AsyncIterable<T>;

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
  if (!filtersRefused.has(api)) {
    try {
      yield* list(filter);
      return;
    } catch (error) {
      if (!isBadRequest(error)) throw error;
      filtersRefused.add(api);
      log(what, "the service refuses the list filter (400); listing without filters from now on");
    }
  }
  // Items already yielded before a refusal on a later page come again: callers look for one item, so a
  // repeat costs nothing.
  yield* list(undefined);
}

/**
 * The object an earlier run created with the creation tag `tag`, not being deleted, or undefined. The tag is
 * always confirmed on each listed object, so the answer is right whatever the service does with filters
 * (see `listNarrowed`):
 *
 * 1. `metadata.tags:eq(tag)` finds it in one request where `eq` matches an array element (the documented
 *    reading, and the usual case of a resumed create), and also where `eq` compares whole arrays and the
 *    object has no user tags.
 * 2. Otherwise `metadata.name:eq(name)`: a scalar field, so every reading that applies filters narrows to
 *    the objects of that name. Under a whole-array reading the tag filter misses an object with user tags;
 *    the name does not.
 * 3. Otherwise the whole list, unfiltered: under a whole-array reading an object with user tags whose name
 *    changed since the interrupted run matches neither filter, and a lost cluster is an orphan.
 * Where the service ignores filters each query lists every object; where it refuses them the first query
 * lists every object unfiltered, which settles the question at once. A fresh create under the documented
 * reading costs two small requests and one listing of the project's objects of that kind: cheap next to
 * the provisioning it starts, and paid only by `up`, never by a preview.
 */
export async function findCreated<T extends ServiceObject>(args: {
  /** How progress lines name the resource. */
  what: string;
  /** The client, which keys the memory of a service refusing filters. */
  api: object;
  list: ListSource<T>;
  tag: string;
  /** The `metadata.name` the create sends. */
  name: string;
}): Promise<T | undefined> {
  const { what, api, list, tag, name } = args;
  for (const filter of [
    `metadata.tags:eq(${filterLiteral(tag)})`,
    `metadata.name:eq(${filterLiteral(name)})`,
  ]) {
    const found = await findByTag(listNarrowed(api, list, filter, what), tag);
    if (found) return found;
    // The service refuses filters: the list just read was the whole, unfiltered list.
    if (filtersRefused.has(api)) return undefined;
  }
  return findByTag(list(undefined), tag);
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
  },
): Promise<void> {
  const live = await args.find();
  if (!live) return;
  const state = live.status?.state ?? "";
  if (TRANSITIONAL_STATES.has(state) && state !== "Deleting") {
    await api.waitUntilSettled(args.find, {
      what: `${args.what} (${args.id})`,
      path: args.path,
      deadline: args.until,
      onProgress: progress,
      judge: (t): WaitVerdict => {
        const s = t.status?.state ?? "";
        return TRANSITIONAL_STATES.has(s) ? { kind: "pending", state: s } : { kind: "done" };
      },
    });
  }
  let removed = false;
  if (state !== "Deleting") {
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
