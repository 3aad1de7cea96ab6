/**
 * `check` of a VolumeAttachment: every problem at once, before any call. Its arguments are described in one
 * table, as for the other kinds: `check`, the list of accepted arguments and the diff table derive from it.
 * An attachment has no creation token: its id is its identity (a volume is attached at most once per cluster).
 */
import { Problems, str, type Inputs } from "../common/check";
import {
  aString,
  checkArguments,
  projectIdCheck,
  timeoutsCheck,
  type ArgumentKey,
  type ArgumentTable,
  type CheckContext,
  type CheckResult,
} from "../common/arguments";
import type { CheckedVolumeAttachmentInputs } from "./types";

/** A block-storage URI, as a path or a full URL (api-notes "Volumes"). */
export const VOLUME_URI = /^(https?:\/\/[^/]+)?\/projects\/[^/]+\/providers\/[^/]+\/blockStorages\/[^/]+$/;

/** The id of an attachment: a volume is attached at most once per cluster. */
export const attachmentId = (kaasId: string, volumeUri: string): string => `${kaasId}:${volumeUri}`;

const VOLUME_URI_RULE = {
  required: true,
  pattern: VOLUME_URI,
  patternHint:
    "must be a block storage URI like /projects/<project>/providers/Vendor.Storage/blockStorages/<id>",
};

/**
 * Every argument of a VolumeAttachment. Any change of where the volume goes replaces it (detaching first, see
 * `diffVolumeAttachment`); only the deadlines update in place.
 */
export const VOLUME_ATTACHMENT_ARGUMENT_RULES = {
  projectId: { change: "replace", check: projectIdCheck },
  kaasId: { change: "replace", check: aString({ required: true }) },
  nodePoolName: { change: "replace", check: aString({ required: true }) },
  nodeId: { change: "replace", check: aString({ required: true }) },
  volumeUri: { change: "replace", check: aString(VOLUME_URI_RULE) },
  timeouts: { change: "update", check: timeoutsCheck },
  adoptId: {
    change: "ignore",
    check(value, property, { news, problems }) {
      const adoptId = str(value, property, problems);
      // The cluster and volume are compared only when their own rules accept them; those report any problem.
      const kaasId = str(news.kaasId, "kaasId", new Problems(), { required: true });
      const volumeUri = str(news.volumeUri, "volumeUri", new Problems(), VOLUME_URI_RULE);
      if (
        adoptId !== undefined &&
        kaasId !== undefined &&
        volumeUri !== undefined &&
        adoptId !== attachmentId(kaasId, volumeUri)
      ) {
        problems.add(
          property,
          `must be the attachment id "${attachmentId(kaasId, volumeUri)}" (<kaasId>:<volumeUri>)`,
        );
      }
    },
  },
  creationScope: { change: "ignore", check: aString() },
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
