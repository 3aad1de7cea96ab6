/** `diff` of a VolumeAttachment: any change of where the volume goes replaces it, detaching first. */
import type { Inputs } from "../common/check";
import { sameValue, type DiffResult } from "../common/diff";
import { diffArguments } from "../common/arguments";
import { VOLUME_ATTACHMENT_ARGUMENT_RULES } from "./check";

/**
 * `declaredBefore` changed: the resource stands by for another holder, stands down, or takes the attachment
 * over (`claims.ts`), which its `update` does. A list still unknown in a preview counts as a change.
 */
const declaredBeforeChanged = (olds: Inputs, news: Inputs): string[] =>
  sameValue(olds.declaredBefore, news.declaredBefore) ? [] : ["declaredBefore"];

/** Diffs a VolumeAttachment's state (`olds`) against its checked inputs, by the rules of its table. */
export function diffVolumeAttachment(olds: Inputs, news: Inputs): DiffResult {
  // A volume is attached to one node at a time: the old attachment must go before the new one is made.
  return {
    ...diffArguments(VOLUME_ATTACHMENT_ARGUMENT_RULES, olds, news, declaredBeforeChanged),
    deleteBeforeReplace: true,
  };
}
