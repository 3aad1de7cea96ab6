/** `diff` of a VolumeAttachment: any change of where the volume goes replaces it, detaching first. */
import { diffByTable, type DiffResult, type DiffTable, type Inputs } from "../common/diff";
import type { VolumeAttachmentInputs } from "./types";

export const VOLUME_ATTACHMENT_DIFF_TABLE: DiffTable<keyof VolumeAttachmentInputs | "creationScope"> = {
  projectId: "replace",
  kaasId: "replace",
  nodePoolName: "replace",
  nodeId: "replace",
  volumeUri: "replace",
  timeouts: "update",
  adoptId: "ignore",
  creationScope: "ignore",
};

export function diffVolumeAttachment(olds: Inputs, news: Inputs): DiffResult {
  // A volume is attached to one node at a time: the old attachment must go before the new one is made.
  return { ...diffByTable(olds, news, VOLUME_ATTACHMENT_DIFF_TABLE), deleteBeforeReplace: true };
}
