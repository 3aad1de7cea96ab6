/**
 * Which VolumeAttachment of the stack holds each attachment, as far as one provider process knows (issue 19,
 * item 8). Two resources of one stack attaching the same volume to the same cluster would share one id
 * (`<kaasId>:<volumeUri>`): the second must be refused before it sends anything or lands in the state, or
 * removing it later detaches the first.
 *
 * All dynamic resources of a stack share one provider process during a `pulumi up` or `preview`
 * (dynamic-provider notes), so a table in that process sees every resource of the run: `check` claims the
 * attachment for the resource (its `creationScope`, `<project>/<stack>/<name>`), a second resource's `check`
 * is refused, and `create` claims again before any request (in a preview the cluster id may have been
 * unknown). The table lives only as long as the process: a later run relies on the service's answers.
 */
import { Problems, str, type Inputs } from "../common/check";
import { subjectOf } from "../common/resource";
import { isUnknown } from "../common/unknown";
import { VOLUME_URI, attachmentId } from "./types";
import { volumePath } from "./observe";

/** What a claim is on: one volume in one cluster of one project. */
export interface ClaimTarget {
  projectId: string;
  kaasId: string;
  volumeUri: string;
}

/** One resource's claim on an attachment. */
export interface AttachmentClaim {
  /** The claiming resource's `creationScope`, `<project>/<stack>/<name>`. */
  scope: string;
  /** Its attachment id, `<kaasId>:<volumeUri>`, with the volume as it spells it. */
  id: string;
  /**
   * Whether the state holds the attachment for this resource (it is in the state with this attachment, or
   * its create succeeded in this process), rather than a create still to come.
   */
  held: boolean;
}

/**
 * The attachment a bag of inputs names, or undefined while any part is unknown or invalid (a preview, or a
 * `check` that reports the problem itself). `defaultProjectId` stands in for a state written without one.
 */
export function claimTargetOf(inputs: Inputs, defaultProjectId?: string): ClaimTarget | undefined {
  // Problems are `check`'s to report: here an invalid or unknown part only means "no target yet".
  const ignored = new Problems();
  const projectId = str(inputs.projectId ?? defaultProjectId, "projectId", ignored, { required: true });
  const kaasId = str(inputs.kaasId, "kaasId", ignored, { required: true });
  const volumeUri = str(inputs.volumeUri, "volumeUri", ignored, { required: true, pattern: VOLUME_URI });
  if (projectId === undefined || kaasId === undefined || volumeUri === undefined) return undefined;
  return { projectId, kaasId, volumeUri };
}

/** Whether two targets are the same volume in the same cluster (a path and a full URL are one volume). */
export const sameClaimTarget = (a: ClaimTarget, b: ClaimTarget): boolean =>
  a.projectId === b.projectId && a.kaasId === b.kaasId && volumePath(a.volumeUri) === volumePath(b.volumeUri);

/** The claiming resource of a bag of inputs: its `creationScope`, when the SDK class set one. */
export const claimScopeOf = (inputs: Inputs): string | undefined =>
  typeof inputs.creationScope === "string" && !isUnknown(inputs.creationScope) && inputs.creationScope !== ""
    ? inputs.creationScope
    : undefined;

/** How a refusal names the holder: `VolumeAttachment "data" of this stack (<id>)`. */
const holderText = (holder: AttachmentClaim): string =>
  `${subjectOf("VolumeAttachment", { creationScope: holder.scope })} of this stack (${holder.id})`;

/** The reason a `check` gives on `volumeUri` when another resource of the stack holds the attachment. */
export const claimedReason = (holder: AttachmentClaim): string =>
  `is already attached by ${holderText(holder)}; one volume can be attached once per cluster`;

/** The error of a `create` refused because another resource of the stack holds the attachment. */
export const claimedError = (what: string, volumeUri: string, holder: AttachmentClaim): Error =>
  new Error(`${what}: ${volumeUri} ${claimedReason(holder)}`);

/** The progress line of a `delete` that leaves the attachment to the resource of the stack that holds it. */
export const leftToHolderLine = (volumeUri: string, holder: AttachmentClaim): string =>
  `${volumeUri} is attached by ${holderText(holder)}, not by this resource: nothing to detach`;

/**
 * The claims of one provider process. A volume's path and full URL are one volume, so the key is its path.
 * A claim by the same resource is never a conflict (a second `check`, a replacement of the resource).
 */
export class AttachmentClaims {
  private readonly byTarget = new Map<string, AttachmentClaim>();

  private static key({ projectId, kaasId, volumeUri }: ClaimTarget): string {
    return JSON.stringify([projectId, kaasId, volumePath(volumeUri)]);
  }

  /** The claim on `target`, if any. */
  get(target: ClaimTarget): AttachmentClaim | undefined {
    return this.byTarget.get(AttachmentClaims.key(target));
  }

  /**
   * The claim of another resource that refuses `scope` the attachment, if any. A resource the state holds
   * the attachment for (`held`) prevails over another's create still to come: that create is then refused.
   */
  conflict(target: ClaimTarget, scope: string, held: boolean): AttachmentClaim | undefined {
    const existing = this.get(target);
    if (!existing || existing.scope === scope) return undefined;
    return held && !existing.held ? undefined : existing;
  }

  /**
   * Claims `target` for `scope` (`held`: the state holds it for `scope`), unless another resource's claim
   * refuses it (see `conflict`): then that claim is returned and nothing changes.
   */
  claim(target: ClaimTarget, scope: string, held: boolean): AttachmentClaim | undefined {
    const refusal = this.conflict(target, scope, held);
    if (refusal) return refusal;
    const existing = this.get(target);
    const keepHeld = existing?.scope === scope && existing.held;
    this.byTarget.set(AttachmentClaims.key(target), {
      scope,
      id: attachmentId(target.kaasId, target.volumeUri),
      held: held || keepHeld,
    });
    return undefined;
  }

  /** Marks the claim of `scope` held (its create succeeded or was recorded with an error). */
  hold(target: ClaimTarget, scope: string): void {
    const existing = this.get(target);
    if (existing?.scope === scope) existing.held = true;
  }

  /** Marks the claim of `scope` as a create to come (detached before it attaches again, as a replacement). */
  unhold(target: ClaimTarget, scope: string): void {
    const existing = this.get(target);
    if (existing?.scope === scope) existing.held = false;
  }

  /** Drops the claim of `scope` (its create failed and nothing of it is in the state). */
  release(target: ClaimTarget, scope: string): void {
    if (this.get(target)?.scope === scope) this.byTarget.delete(AttachmentClaims.key(target));
  }

  /** Forgets every claim. */
  clear(): void {
    this.byTarget.clear();
  }
}

/** The claims of this provider process, shared by every VolumeAttachment provider in it. */
export const PROCESS_CLAIMS = new AttachmentClaims();
