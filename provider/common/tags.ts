/**
 * The tags this package writes on the objects it creates. Both start with the reserved prefix, which user
 * tags may not use (`check`), so user tags and these never mix up.
 *
 * - The creation tag `pulumi-ct-<token>` marks a create in progress: it is sent with the create request and
 *   removed once the object's id is in the stack's state (the create's release), so the only objects that
 *   carry it are creates whose run never learnt their id (an interrupted run, a lost answer).
 * - The owner tag `pulumi-ct-owner:<project>/<stack>/<resource name>` names the resource that created the
 *   object, or adopted it; it stays on the object, and `adoptId` reads it to refuse taking over another
 *   stack's object by accident.
 */
export const CREATION_TAG_PREFIX = "pulumi-ct-";

/** Prefix of the owner tag; it starts with `CREATION_TAG_PREFIX`, so it is reserved and never a user tag. */
export const OWNER_TAG_PREFIX = `${CREATION_TAG_PREFIX}owner:`;
