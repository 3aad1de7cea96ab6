/**
 * The package's tags on an object the state tracks: the owner tag of the resource, and no creation tag (see
 * `tags.ts`). Written by one metadata-only update, and only when the tags differ: by the provider's update and
 * adoption, which the engine handed the id, and by the program (sdk/persisted.ts) once the engine has recorded
 * a created object's id, or after a renamed stack's state named a former scope.
 */
import type { VendorContainerClient } from "../../rest/client";
import type { MetadataRequest } from "../../schemas";
import type { HookContext, KindDescriptor, KindInputs } from "./kindDescriptor";
import { log } from "./context";
import { OWNER_TAG_PREFIX, deadlineOf, errorText, ownerOf, userTags } from "./resource";
import { isUncertain, waitSettled, type ServiceObject } from "./lifecycle";

/**
 * The metadata update that gives `live` the tags of a tracked object whose owner tag names the scope `owner`
 * (none when undefined), keeping its name, location and user tags; undefined when its tags already are those.
 * `declared` (the resource's `name` and `location`) stands in for what the object does not report (an update
 * sends the location only when set, spec §9).
 */
export function ownedMetadata(
  live: ServiceObject,
  owner: string | undefined,
  declared: { name?: string; location?: string },
): MetadataRequest | undefined {
  const metadata = live.metadata;
  const current = metadata.tags ?? [];
  const tags = [...userTags(current), ...(owner === undefined ? [] : [`${OWNER_TAG_PREFIX}${owner}`])];
  if (tags.length === current.length && tags.every((tag) => current.includes(tag))) return undefined;
  const request: MetadataRequest = { name: metadata.name || declared.name || "", tags };
  const where = metadata.location?.value || declared.location;
  if (where) request.location = { value: where };
  return request;
}

/** What `retag` did. */
export type RetagOutcome = "retagged" | "unchanged" | "gone" | "owned elsewhere";

/** Metadata updates of one retag: the first, and one more when the first one's answer was lost. */
const MAX_RETAG_ATTEMPTS = 2;

/**
 * Sends the metadata update that `metadataOf` asks for on the settled object, and waits until it is settled
 * again; returns it. A request whose answer was lost may have been applied: the object is then read again once
 * it settled, and the update is sent again only if its tags still differ (`isUncertain`, as an update's own
 * requests are treated in describedProvider.ts).
 */
async function sendRetag<R extends ServiceObject>(
  live: R,
  {
    metadataOf,
    send,
    settle,
    what,
    line,
  }: {
    metadataOf: (live: R) => MetadataRequest | undefined;
    send: (metadata: MetadataRequest) => Promise<void>;
    settle: (afterMutation: boolean) => Promise<R>;
    what: string;
    line: string;
  },
): Promise<R> {
  let current = live;
  for (let attempt = 1; ; attempt++) {
    const metadata = metadataOf(current);
    if (!metadata) return current;
    log(what, line);
    try {
      await send(metadata);
      return await settle(true);
    } catch (error) {
      if (!isUncertain(error) || attempt >= MAX_RETAG_ATTEMPTS) throw error;
      log(what, `the tag update's outcome is unknown (${errorText(error)}); reading the tags again`);
      current = await settle(false);
    }
  }
}

/**
 * Gives the object `id` of a described kind the tags of a tracked object (`ownedMetadata`), and waits until it
 * is settled again, so that the next request on it (a dependent's create, a delete) does not meet it busy.
 * `owner` is the scope its owner tag names (`<project>/<stack>/<name>`). With `from`, only an object whose
 * owner tag names the scope `from` (or that has none) is changed: another resource may have adopted it since.
 * `state` locates the object (`projectId`, a backup's `kaasId`, `location`, `timeouts`): the state's or the
 * program's values.
 */
export async function retag<R extends ServiceObject, C extends KindInputs>(
  descriptor: KindDescriptor<R, C>,
  api: VendorContainerClient,
  state: C,
  id: string,
  options: { owner: string | undefined; from?: string; what: string; describe: string },
): Promise<RetagOutcome> {
  const { calls } = descriptor;
  const observe = () => calls.find(api, state, id);
  const until = deadlineOf(state, "update", descriptor.timeouts);
  const settle = (afterMutation: boolean) =>
    waitSettled(api, observe, options.what, id, calls.path(api, state, id), until, afterMutation);
  const live = await observe();
  if (!live) return "gone";
  const owner = ownerOf(live.metadata.tags);
  if (options.from !== undefined && owner !== undefined && owner !== options.from) return "owned elsewhere";
  const metadataOf = (object: R) => ownedMetadata(object, options.owner, state);
  if (!metadataOf(live)) return "unchanged";
  // The service refuses an update while the object is busy (a dependent's create may have started one).
  const settled = await settle(false);
  if (!metadataOf(settled)) return "unchanged";
  await sendRetag(settled, {
    metadataOf,
    send: (metadata) => calls.updateMetadata(api, state, id, metadata),
    settle,
    what: options.what,
    line: `${options.describe} ${id}`,
  });
  return "retagged";
}

/** `retag` within a provider operation, whose context already knows the object and its wait. */
export function retagLive<R extends ServiceObject, C extends KindInputs>(
  descriptor: KindDescriptor<R, C>,
  context: HookContext<R>,
  inputs: C,
  live: R,
  owner: string | undefined,
): Promise<R> {
  return sendRetag(live, {
    metadataOf: (object) => ownedMetadata(object, owner, inputs),
    send: (metadata) => descriptor.calls.updateMetadata(context.api, inputs, context.id, metadata),
    settle: context.settle,
    what: context.what,
    line: `recording the owner of ${context.id} (tags: the creation tag released)`,
  });
}
