/**
 * The resource kinds of the package, the one list every layer keys its per-kind registry by: the endpoint
 * table, the providers, the SDK classes and their shells, the policies and the emulator's kind modules are each
 * a `Record<KindName, ...>`, so a kind missing from any of them does not compile. What every layer knows of a
 * kind by its name alone is here too: the GET that reads one of its objects, and for a kind whose objects carry
 * the package's tags, the outputs that hold and locate an object.
 */
export const KIND_NAMES = ["Kaas", "KaasBackup", "Registry", "VolumeAttachment"] as const;

/** A resource kind of the package: `Kaas`, `KaasBackup`, `Registry` or `VolumeAttachment`. */
export type KindName = (typeof KIND_NAMES)[number];

/** The registry of reads: the GET that reads an object of every kind, or null for a kind with none. */
export type ReadEndpointRegistry = Record<KindName, string | null>;

/**
 * The GET that reads one object of each kind, by id: the probe of the kind's mutations (`Endpoint.probe`).
 * Each is an endpoint of the table (schemas/endpoints.ts, which does not compile otherwise): the REST client
 * indexes the table with them (`ObjectOf`, rest/client.ts).
 */
export const READ_ENDPOINTS = {
  Kaas: "getKaas",
  KaasBackup: "getBackup",
  Registry: "getRegistry",
  // An attachment is no object of the service: a cluster shows it, where it shows attachments (api-notes
  // "Attachments"), so reading one reads the cluster.
  VolumeAttachment: null,
} as const satisfies ReadEndpointRegistry;

/**
 * The kinds that create no service object of their own and carry no tags: a volume attachment is a link
 * between a volume and a cluster node. Every other kind is in `TAGGED_KINDS`.
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
 * The kinds that create service objects and tag them (provider/common/tags.ts). The program keeps their tags
 * too (sdk/persisted.ts). Keyed by every kind that is not in `UNTAGGED_KINDS`, so a kind added to `KIND_NAMES`
 * does not compile until it is in one of the two.
 */
export const TAGGED_KINDS = {
  Kaas: { id: "kaasId", locator: ["projectId", "kaasId", "name", "location", "timeouts"] },
  KaasBackup: { id: "backupId", locator: ["projectId", "kaasId", "name", "location", "timeouts"] },
  Registry: { id: "registryId", locator: ["projectId", "name", "location", "timeouts"] },
} as const satisfies TaggedKindRegistry;

/** A kind whose objects carry the package's tags. */
export type TaggedKind = keyof typeof TAGGED_KINDS;
