/** Pieces every kind's provider shares: naming, deadlines, state splitting, creation tokens. */
import { createHash } from "node:crypto";
import { durationMs, type Inputs } from "./check";
import { canonical, sameValue } from "./diff";
import { CREATION_TAG_PREFIX, OWNER_TAG_PREFIX } from "./tags";
import { UNKNOWN, containsUnknown } from "./unknown";
import type { MetadataResponse } from "../../schemas";

/** Default deadlines of one kind, in ms. */
export interface DefaultTimeouts {
  create: number;
  update: number;
  delete: number;
}

/**
 * How progress lines and errors name a resource: `Kaas "prod"`, from the Pulumi resource name carried in
 * `creationScope` (`<project>/<stack>/<name>`), else the `name` argument.
 */
export function subjectOf(kind: string, inputs: Inputs): string {
  const scope = typeof inputs.creationScope === "string" ? inputs.creationScope.split("/").pop() : undefined;
  return `${kind} "${scope ?? (typeof inputs.name === "string" ? inputs.name : "?")}"`;
}

/** The `timeouts` argument of a kind, each entry a duration `check` accepted. */
export type TimeoutsArgument = Partial<Record<keyof DefaultTimeouts, unknown>>;

/** Absolute deadline of `op` from the `timeouts` argument or the kind's default. */
export function deadlineOf(
  inputs: { timeouts?: TimeoutsArgument },
  op: keyof DefaultTimeouts,
  defaults: DefaultTimeouts,
  now = Date.now(),
): number {
  return now + durationMs(inputs.timeouts?.[op], defaults[op]);
}

/** The arguments of a state object: drops computed outputs and `__provider`. */
export function inputsOf(state: Inputs, computedKeys: readonly string[]): Inputs {
  const out: Inputs = {};
  for (const [k, v] of Object.entries(state)) {
    if (k !== "__provider" && !computedKeys.includes(k)) out[k] = v;
  }
  return out;
}

/**
 * The creation token of idempotent create: a digest of the resource's logical identity only, its
 * `creationScope` (`<project>/<stack>/<name>`) and the state backend it runs against (`backend`, see
 * `backendIdentity`). No argument goes into it, secrets least of all: the token is stored by the service in
 * a tag that anyone who can list the objects reads. A re-run after an interrupted create computes the same
 * token and finds the object it created; a replacement computes it too (the engine checks a replacement's
 * inputs with no old inputs), which is safe because the tag is removed once a create completes (see
 * `tags.ts`), so a completed object is never found by it.
 */
export function creationTokenOf(inputs: Inputs, backend = ""): string {
  if (containsUnknown(inputs.creationScope)) return UNKNOWN;
  const seed = canonical(["creation/v2", inputs.creationScope ?? "", backend]);
  return createHash("sha256").update(seed).digest("hex").slice(0, 20);
}

export { CREATION_TAG_PREFIX, OWNER_TAG_PREFIX };

/** The metadata arguments every created kind has once checked, with the creation bookkeeping. */
export interface MetadataArguments {
  name: string;
  location: string;
  tags?: string[];
  creationScope?: string;
  creationToken?: string;
}

/** The tag that carries the creation token. */
export const creationTag = (inputs: { creationToken?: string }): string =>
  `${CREATION_TAG_PREFIX}${inputs.creationToken}`;

/** The owner tag of a resource's scope, or undefined for a resource without one. */
export const ownerTag = (inputs: { creationScope?: string }): string | undefined =>
  typeof inputs.creationScope === "string" && inputs.creationScope !== ""
    ? `${OWNER_TAG_PREFIX}${inputs.creationScope}`
    : undefined;

/** The scope an object's owner tag names, or undefined when it has none. */
export function ownerOf(tags: readonly string[] | null | undefined): string | undefined {
  const tag = (tags ?? []).find((t) => t.startsWith(OWNER_TAG_PREFIX));
  return tag === undefined ? undefined : tag.slice(OWNER_TAG_PREFIX.length);
}

/** Whether an object still carries a creation tag (any create's, legacy ones included): not yet released. */
export const carriesCreationTag = (tags: readonly string[] | null | undefined): boolean =>
  (tags ?? []).some((t) => t.startsWith(CREATION_TAG_PREFIX) && !t.startsWith(OWNER_TAG_PREFIX));

/**
 * User tags plus this package's tags, as sent to the service: the owner tag always, the creation tag only
 * with a create request (`creating`). An update never sends the creation tag, so any update releases it.
 */
export function wireTags(inputs: Omit<MetadataArguments, "name" | "location">, creating = false): string[] {
  const tags = Array.isArray(inputs.tags) ? [...inputs.tags] : [];
  if (creating && inputs.creationToken) tags.push(creationTag(inputs));
  const owner = ownerTag(inputs);
  if (owner !== undefined) tags.push(owner);
  return tags;
}

/** Live tags without this package's tags. */
export const userTags = (tags: string[] | null | undefined): string[] =>
  (tags ?? []).filter((t) => !t.startsWith(CREATION_TAG_PREFIX));

/**
 * The arguments every object's metadata answers, as a `get` and an import report them: its name, its region
 * (the answered value, else its code) and its user tags.
 */
export function metadataArguments(metadata: MetadataResponse): {
  name: string | undefined;
  location: string | undefined;
  tags: string[];
} {
  return {
    name: metadata.name ?? undefined,
    location: metadata.location?.value ?? metadata.location?.code ?? undefined,
    tags: userTags(metadata.tags),
  };
}

/** What an import records of any object: where it was looked up, its name, region and user tags (if any). */
export function importedMetadata<L extends object>(lookup: L, metadata: MetadataResponse) {
  const { name, location, tags } = metadataArguments(metadata);
  return { ...lookup, name, location, tags: tags.length > 0 ? tags : undefined };
}

/**
 * `declared` with the name and tags the live resource has (refresh): its name (the declared one when it has
 * none) and its user tags, which replace the declared ones when tags were declared or the resource has some.
 */
export function withLiveNameAndTags<I extends { name: string; tags?: string[] }>(
  declared: I,
  metadata: { name?: string | null; tags?: string[] | null },
): I {
  const tags = userTags(metadata.tags);
  const live = declared.tags !== undefined || tags.length > 0 ? { tags } : {};
  return { ...declared, name: metadata.name ?? declared.name, ...live };
}

/** The message of any thrown value. */
export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** `hourly/monthly/yearly` answers mapped back to the input spelling (api-notes "KaaS"). */
export function normaliseBillingPeriod(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const map: Record<string, string> = {
    hour: "Hour",
    hourly: "Hour",
    month: "Month",
    monthly: "Month",
    year: "Year",
    yearly: "Year",
  };
  return map[value.toLowerCase()] ?? value;
}

/**
 * The inputs a refresh hands back (`ReadResult.inputs`): only when the live object drifted from the
 * declared arguments. Otherwise none, so the engine keeps the inputs it has, with their secret marks
 * (a dynamic provider cannot mark a value secret itself).
 */
export function refreshedInputs(declared: Inputs, live: Inputs): Inputs | undefined {
  return sameValue(declared, live) ? undefined : live;
}

/** Request metadata of a create: name, location and tags (with the creation and owner tags). */
export function insertMetadata(inputs: MetadataArguments): {
  name: string;
  location: { value: string };
  tags: string[];
} {
  return {
    name: inputs.name,
    location: { value: inputs.location },
    tags: wireTags(inputs, true),
  };
}

/**
 * Request metadata of an update. Location never changes; it is sent only when set, never as an empty
 * value (spec §9: `{"value": ""}` is refused with "Location Invalid"). The tags carry the owner tag and no
 * creation tag: an update releases the creation tag (`tags.ts`).
 */
export function updateMetadata(news: MetadataArguments): {
  name: string;
  location?: { value: string };
  tags: string[];
} {
  const metadata: { name: string; location?: { value: string }; tags: string[] } = {
    name: news.name,
    tags: wireTags(news),
  };
  if (typeof news.location === "string" && news.location !== "") metadata.location = { value: news.location };
  return metadata;
}
