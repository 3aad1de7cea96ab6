/**
 * Partial failure (dynamic-provider notes): when create or update fails after the service accepted the
 * object, the error must carry the id, the outputs and the reasons, so the engine keeps the object in state
 * instead of orphaning it; the next `up` calls `update`, which resumes waiting. The engine stores the
 * error's `properties` as they are, without adding `__provider`: it is added here, or a later `destroy` or
 * `refresh` of that resource fails and orphans it after all.
 */
import { isNotFound } from "../../rest/errors";
import { redact } from "../../rest/redact";
import { jsonSafe } from "./outputs";
import { errorText } from "./resource";

export interface PartialFailure extends Error {
  id: string;
  properties: Record<string, unknown>;
  reasons: string[];
}

/** Builds the error that makes the engine record `id` with `properties` and the init error `reason`. */
export function partialFailure(
  id: string,
  properties: Record<string, unknown>,
  inputs: Record<string, unknown>,
  reason: string,
): PartialFailure {
  const message = redact(reason);
  return Object.assign(new Error(message), {
    id,
    properties: { ...properties, __provider: inputs.__provider },
    reasons: [message],
  });
}

/** The object a failed create or update was about, and how to read it again. */
interface FailedObject<T> {
  /** How messages name the resource. */
  what: string;
  id: string;
  /** The object as the service has it now, or undefined when it is gone. */
  find: () => Promise<T | undefined>;
  /** Its computed outputs. */
  computed: (object: T) => object;
}

/**
 * The error a create throws once the service accepted the object: a partial failure carrying its id and
 * the outputs as best known (read again, else from the create's answer), so the engine keeps it in state.
 */
export async function createFailure<T>(
  error: unknown,
  args: FailedObject<T> & {
    inputs: Record<string, unknown>;
    declared: Record<string, unknown>;
    created: T;
  },
): Promise<PartialFailure> {
  const known = (await args.find().catch(() => undefined)) ?? args.created;
  const props = jsonSafe({ ...args.declared, ...args.computed(known) });
  return partialFailure(
    args.id,
    props,
    args.inputs,
    `${args.what} (${args.id}) was created but is not ready: ${errorText(error)}`,
  );
}

/**
 * The error of an update of an object the service no longer has: the state still holds it, and only a
 * refresh drops it, so the message says what to run.
 */
export function vanished(what: string, id: string): Error {
  return new Error(
    `${what} (${id}) no longer exists: run \`pulumi refresh\` to drop it from the stack, ` +
      `then \`pulumi up\` to create it again`,
  );
}

/**
 * The error an update throws. A vanished object asks for a refresh; anything else is a partial failure that
 * keeps the old inputs in state, so the next `up` shows the change again and retries it.
 */
export async function updateFailure<T>(
  error: unknown,
  args: FailedObject<T> & { olds: Record<string, unknown>; news: Record<string, unknown> },
): Promise<Error> {
  if (isNotFound(error)) return vanished(args.what, args.id);
  // A wait that failed because the object disappeared (`it no longer exists`), or any other failure of an
  // object the service lost meanwhile: a lookup that answers "none" tells, and the state must be refreshed.
  const lookup = await args.find().then(
    (object) => ({ object }),
    () => undefined,
  );
  if (lookup && lookup.object === undefined) return vanished(args.what, args.id);
  const known = lookup?.object;
  const props = jsonSafe({ ...args.olds, ...(known ? args.computed(known) : {}), __provider: undefined });
  return partialFailure(
    args.id,
    props,
    args.news,
    `${args.what} (${args.id}) update did not complete: ${errorText(error)}`,
  );
}
