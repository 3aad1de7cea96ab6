/**
 * The creation token as the design documents it, computed here without the provider's code: the first 20 hex
 * digits of the SHA-256 of the JSON array `["creation/v2", <creationScope>, <backend>]`. Tests compare the
 * provider's tokens and tags with this, so a change of the derivation (which would orphan interrupted creates)
 * fails them.
 */
import { createHash } from "node:crypto";

export function expectedCreationToken(creationScope: string, backend = ""): string {
  const seed = JSON.stringify(["creation/v2", creationScope, backend]);
  return createHash("sha256").update(seed).digest("hex").slice(0, 20);
}

/** The creation tag a create request of `creationScope` carries. */
export const expectedCreationTag = (creationScope: string, backend = ""): string =>
  `pulumi-ct-${expectedCreationToken(creationScope, backend)}`;

/** The owner tag of `creationScope`. */
export const expectedOwnerTag = (creationScope: string): string => `pulumi-ct-owner:${creationScope}`;
