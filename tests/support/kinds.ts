/**
 * The resource kinds the package publishes, written out: the tests hold the SDK classes, the serialized
 * shells' subpaths and the provider's table to this list, so a kind the package drops or half wires fails
 * them.
 */
export const KINDS = ["Kaas", "KaasBackup", "Registry", "VolumeAttachment"] as const;
