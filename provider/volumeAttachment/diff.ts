/** `diff` of a VolumeAttachment: any change of where the volume goes replaces it, detaching first. */
import type { Inputs } from "../common/check";
import { diffArguments } from "../common/arguments";
import { VOLUME_ATTACHMENT_ARGUMENT_RULES } from "./check";
import { holderOf } from "./claims";
import type { DiffResult } from "../common/diff";

/**
 * Diffs a VolumeAttachment's state (`olds`) against its checked inputs, by the rules of its table.
 * `declaredBefore` is no argument: it decides a create only (`claims.ts`), and a resource that holds its
 * attachment keeps it whatever the program declares before it. A state an earlier version wrote standing by
 * (holding nothing, its `declaredBefore` recorded) is replaced: its delete detaches nothing, and the create
 * that follows is refused or attaches, as any create, so the state never keeps a resource that holds nothing.
 */
export function diffVolumeAttachment(olds: Inputs, news: Inputs): DiffResult {
  const diffed = diffArguments(VOLUME_ATTACHMENT_ARGUMENT_RULES, olds, news);
  // A volume is attached to one node at a time: the old attachment must go before the new one is made.
  if (!holderOf(olds)) return { ...diffed, deleteBeforeReplace: true };
  return {
    ...diffed,
    changes: true,
    replaces: [...diffed.replaces, "declaredBefore"],
    deleteBeforeReplace: true,
  };
}
