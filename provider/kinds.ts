import type { KindName } from "../schemas/kinds";

/** The Pulumi module of every kind: tokens read `pulumi-nodejs:dynamic/vendor-container:<Kind>`. */
export const MODULE = "vendor-container";

/** The type token of a kind's dynamic resources: `pulumi-nodejs:dynamic/vendor-container:Kaas`. */
export const dynamicTypeToken = (kind: KindName): string => `pulumi-nodejs:dynamic/${MODULE}:${kind}`;

/**
 * The token of a resource or function of the provider plugin (plugin/): `vendor-container:index:Kaas`,
 * `vendor-container:index:getKaas`.
 */
export const pluginToken = (name: string): string => `${MODULE}:index:${name}`;

/** The type token of a kind's resources on the provider plugin (plugin/): `vendor-container:index:Kaas`. */
export const pluginTypeToken = (kind: KindName): string => pluginToken(kind);

/**
 * The kinds that create no service object of their own and carry no tags: a volume attachment is a link
 * between a volume and a cluster node. Every other kind of schemas/kinds.ts is in `TAGGED_KINDS`.
 */
export const UNTAGGED_KINDS = ["VolumeAttachment"] as const satisfies readonly KindName[];

/** A kind whose objects carry no tags of the package. */
export type UntaggedKind = (typeof UNTAGGED_KINDS)[number];

/** What the program knows of a tagged kind's objects from the state (sdk/persisted.ts). */
export interface TaggedKindEntry {
  /** The output that holds the object's id. */
  id: string;
  /** The outputs that locate the object (the rest of the state, secrets among them, is dropped at once). */
  locator: readonly string[];
}

/** The registry of tagged kinds: one entry for every kind that is not in `UNTAGGED_KINDS`. */
export type TaggedKindRegistry = Record<Exclude<KindName, UntaggedKind>, TaggedKindEntry>;

/**
 * The kinds that create service objects and tag them (common/tags.ts). The program keeps their tags too
 * (sdk/persisted.ts). Keyed by every kind that is not in `UNTAGGED_KINDS`, so a kind added to schemas/kinds.ts
 * does not compile until it is in one of the two.
 */
export const TAGGED_KINDS = {
  Kaas: { id: "kaasId", locator: ["projectId", "kaasId", "name", "location", "timeouts"] },
  KaasBackup: { id: "backupId", locator: ["projectId", "kaasId", "name", "location", "timeouts"] },
  Registry: { id: "registryId", locator: ["projectId", "name", "location", "timeouts"] },
} as const satisfies TaggedKindRegistry;

/** A kind whose objects carry the package's tags. */
export type TaggedKind = keyof typeof TAGGED_KINDS;
