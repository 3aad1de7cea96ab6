/**
 * The resource kinds of the package, the one list every layer keys its per-kind registry by: the endpoint
 * table, the providers, the SDK classes and their shells, the policies and the emulator's kind modules are each
 * a `Record<KindName, ...>`, so a kind missing from any of them does not compile.
 */
export const KIND_NAMES = ["Kaas", "KaasBackup", "Registry", "VolumeAttachment"] as const;

/** A resource kind of the package: `Kaas`, `KaasBackup`, `Registry` or `VolumeAttachment`. */
export type KindName = (typeof KIND_NAMES)[number];
