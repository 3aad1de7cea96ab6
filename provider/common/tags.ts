/** Prefix of the tag that carries the creation token of idempotent create; user tags may not use it. */
export const CREATION_TAG_PREFIX = "pulumi-ct-";
