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
 * its retries ran out, or a retry met the resource busy (a 400 without field errors).
 */
export function isUncertain(error: unknown): boolean {
  if (!isVendorApiError(error)) return false;
  if (["network", "timeout", "deadline"].includes(error.kind) || error.retryable || error.ambiguous)
    return true;
  return error.status === 400 && error.fieldErrors.length === 0;
}

/** True when the object's last known state is transitional (e.g. the `InCreation` a create answered). */
export const isTransitional = (object: ServiceObject): boolean =>
  TRANSITIONAL_STATES.has(object.status?.state ?? "");

/** Up to this many POSTs for one create whose earlier attempts had unknown outcomes. */
const MAX_CREATE_ATTEMPTS = 5;

/**
 * Idempotent create (Kaas issue): look the object up by its creation tag first (an earlier run may have
 * been interrupted after the service accepted it); POST; when the POST's fate is unknown (timeout, dropped
 * connection, gateway error) look again before sending it again.
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
