/**
 * The resource kinds of the package. Both the SDK classes and the provider table are keyed by this union,
 * so a kind that is half wired does not compile.
 */
export const KIND_NAMES = ["Kaas", "KaasBackup", "Registry", "VolumeAttachment"] as const;
export type KindName = (typeof KIND_NAMES)[number];

/** The Pulumi module of every kind: tokens read `pulumi-nodejs:dynamic/vendor-container:<Kind>`. */
export const MODULE = "vendor-container";
