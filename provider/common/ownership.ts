/**
 * The package's tags on an object the state tracks: the owner tag of the resource, and no creation tag (see
 * `tags.ts`). Written by one metadata-only update, and only when the tags differ: by the provider's update and
 * adoption, which the engine handed the id, and by the program (sdk/persisted.ts) once the engine has recorded
 * a created object's id, or after a renamed stack's state named a former scope.
 */
import type { VendorContainerClient } from "../../rest/client";
import type { MetadataRequest } from "../../schemas";
import type { HookContext, KindDescriptor, KindInputs } from "./describedProvider";
import { log } from "./context";
import { OWNER_TAG_PREFIX, deadlineOf, ownerOf, userTags } from "./resource";
import { waitSettled, type ServiceObject } from "./lifecycle";

/** A live object's metadata as the responses carry it. */
interface LiveMetadata {
  name?: string | null;
  location?: { value?: string | null } | null;
  tags?: string[] | null;
}

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
  const metadata = live.metadata as ServiceObject["metadata"] & LiveMetadata;
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

/**
 * Gives the object `id` of a described kind the tags of a tracked object (`ownedMetadata`), and waits until it
 * is settled again, so that the next request on it (a dependent's create, a delete) does not meet it busy.
 * `owner` is the scope its owner tag names (`<project>/<stack>/<name>`). With `from`, only an object whose
 * owner tag names the scope `from` (or that has none) is changed: another resource may have adopted it since. `state` locates the object (`projectId`, a backup's `kaasId`, `location`,
 * `timeouts`): the state's or the program's values.
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
  let live = await observe();
  if (!live) return "gone";
  const owner = ownerOf(live.metadata.tags);
  if (options.from !== undefined && owner !== undefined && owner !== options.from) return "owned elsewhere";
  if (!ownedMetadata(live, options.owner, state)) return "unchanged";
  // The service refuses an update while the object is busy (a dependent's create may have started one).
  live = await settle(false);
  const metadata = ownedMetadata(live, options.owner, state);
  if (!metadata) return "unchanged";
  log(options.what, `${options.describe} ${id}`);
  await calls.updateMetadata(api, state, id, metadata);
  await settle(true);
  return "retagged";
}

/** `retag` within a provider operation, whose context already knows the object and its wait. */
export async function retagLive<R extends ServiceObject, C extends KindInputs>(
  descriptor: KindDescriptor<R, C>,
  context: HookContext<R>,
  inputs: C,
  live: R,
  owner: string | undefined,
): Promise<R> {
  const metadata = ownedMetadata(live, owner, inputs);
  if (!metadata) return live;
  log(context.what, `recording the owner of ${context.id} (tags: the creation tag released)`);
  await descriptor.calls.updateMetadata(context.api, inputs, context.id, metadata);
  return context.settle(true);
}
