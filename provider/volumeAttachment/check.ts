/**
 * `check` of a VolumeAttachment: every problem at once, before any call. Its arguments are described in one
 * table, as for the other kinds: `check`, the list of accepted arguments and the diff table derive from it.
 * An attachment has no creation token: its id is its identity (a volume is attached at most once per cluster).
 */
import type { Inputs } from "../common/check";
import {
  BOOKKEEPING,
  checkArguments,
  type ArgumentKey,
  type ArgumentTable,
  type CheckContext,
  type CheckResult,
} from "../common/arguments";
import { VOLUME_ATTACHMENT_ARGUMENTS, type CheckedVolumeAttachmentInputs } from "./types";

/**
 * The argument table of a VolumeAttachment: its schema's rules (`VOLUME_ATTACHMENT_ARGUMENTS`), in the
 * schema's order, then `creationScope`.
 */
// Not `withBookkeeping`: an attachment has no creation token (`check` computes none), so `creationToken` is
// no argument of it; with that row, `check` would accept a `creationToken` input and `diff` would compare it.
export const VOLUME_ATTACHMENT_ARGUMENT_RULES = {
  ...VOLUME_ATTACHMENT_ARGUMENTS,
  creationScope: BOOKKEEPING.creationScope,
} satisfies ArgumentTable<ArgumentKey<CheckedVolumeAttachmentInputs>>;

/** Validates and normalises VolumeAttachment inputs, by the rules of its table. */
export function checkVolumeAttachment(
  olds: Inputs,
  news: Inputs,
  ctx: CheckContext,
): CheckResult<CheckedVolumeAttachmentInputs> {
  return checkArguments<CheckedVolumeAttachmentInputs>(VOLUME_ATTACHMENT_ARGUMENT_RULES, olds, news, ctx, {
    creationToken: false,
  });
}
