/** `check` of a VolumeAttachment: every problem at once, before any call. */
import {
  Problems,
  projectId,
  rejectUnknownProperties,
  str,
  timeouts,
  type CheckFailure,
  type Inputs,
} from "../common/check";

export const VOLUME_ATTACHMENT_ARGUMENTS = [
  "projectId",
  "kaasId",
  "nodePoolName",
  "nodeId",
  "volumeUri",
  "timeouts",
  "adoptId",
  "creationScope",
] as const;

/** A block-storage URI, as a path or a full URL (api-notes "Volumes"). */
export const VOLUME_URI = /^(https?:\/\/[^/]+)?\/projects\/[^/]+\/providers\/[^/]+\/blockStorages\/[^/]+$/;

/** The id of an attachment: a volume is attached at most once per cluster. */
export const attachmentId = (kaasId: string, volumeUri: string): string => `${kaasId}:${volumeUri}`;

export function checkVolumeAttachment(
  _olds: Inputs,
  news: Inputs,
  ctx: { defaultProjectId?: string },
): { inputs: Inputs; failures: CheckFailure[] } {
  const p = new Problems();
  const inputs: Inputs = { ...news };
  rejectUnknownProperties(news, VOLUME_ATTACHMENT_ARGUMENTS, p);
  projectId(inputs, ctx.defaultProjectId, p);
  const kaasId = str(news.kaasId, "kaasId", p, { required: true });
  str(news.nodePoolName, "nodePoolName", p, { required: true });
  str(news.nodeId, "nodeId", p, { required: true });
  const volumeUri = str(news.volumeUri, "volumeUri", p, {
    required: true,
    pattern: VOLUME_URI,
    patternHint:
      "must be a block storage URI like /projects/<project>/providers/Vendor.Storage/blockStorages/<id>",
  });
  timeouts(news.timeouts, "timeouts", p);
  const adoptId = str(news.adoptId, "adoptId", p);
  if (
    adoptId !== undefined &&
    kaasId !== undefined &&
    volumeUri !== undefined &&
    adoptId !== attachmentId(kaasId, volumeUri)
  ) {
    p.add("adoptId", `must be the attachment id "${attachmentId(kaasId, volumeUri)}" (<kaasId>:<volumeUri>)`);
  }
  str(news.creationScope, "creationScope", p);
  return { inputs, failures: p.failures };
}
