import type { KindName } from "../schemas/kinds";

/** The Pulumi module of every kind: tokens read `pulumi-nodejs:dynamic/vendor-container:<Kind>`. */
export const MODULE = "vendor-container";

/**
 * The kinds that create service objects and tag them (common/tags.ts), each with the output that holds its
 * object's id. The program keeps their tags too (sdk/persisted.ts).
 */
export const TAGGED_KINDS = {
  Kaas: "kaasId",
  KaasBackup: "backupId",
  Registry: "registryId",
} as const satisfies Partial<Record<KindName, string>>;

/** A kind whose objects carry the package's tags. */
export type TaggedKind = keyof typeof TAGGED_KINDS;
