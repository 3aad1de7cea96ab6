import type { KindName } from "../schemas/kinds";

/** The Pulumi module of every kind: tokens read `pulumi-nodejs:dynamic/vendor-container:<Kind>`. */
export const MODULE = "vendor-container";

/** The type token of a kind's dynamic resources: `pulumi-nodejs:dynamic/vendor-container:Kaas`. */
export const dynamicTypeToken = (kind: KindName): string => `pulumi-nodejs:dynamic/${MODULE}:${kind}`;

/** The type token of a kind's resources on the provider plugin (plugin/): `vendor-container:index:Kaas`. */
export const pluginTypeToken = (kind: KindName): string => `${MODULE}:index:${kind}`;

/**
 * The kinds that create no service object of their own and carry no tags: a volume attachment is a link
 * between a volume and a cluster node. Every other kind of schemas/kinds.ts is in `TAGGED_KINDS`.
 */
export const UNTAGGED_KINDS = ["VolumeAttachment"] as const satisfies readonly KindName[];

/** A kind whose objects carry no tags of the package. */
export type UntaggedKind = (typeof UNTAGGED_KINDS)[number];

/**
 * The kinds that create service objects and tag them (common/tags.ts), each with the output that holds its
 * object's id. The program keeps their tags too (sdk/persisted.ts). Keyed by every kind that is not in
 * `UNTAGGED_KINDS`, so a kind added to schemas/kinds.ts does not compile until it is in one of the two.
 */
export const TAGGED_KINDS = {
  Kaas: "kaasId",
  KaasBackup: "backupId",
  Registry: "registryId",
} as const satisfies Record<Exclude<KindName, UntaggedKind>, string>;

/** A kind whose objects carry the package's tags. */
export type TaggedKind = keyof typeof TAGGED_KINDS;
