/**
 * Which VolumeAttachment of a stack holds an attachment when several of them attach the same volume to the
 * same cluster (they share one id, `<kaasId>:<volumeUri>`).
 *
 * The rule: the first one the program declares holds it. The SDK class gives each VolumeAttachment the ones the
 * program declared before it with the same volume and cluster (`declaredBefore`, set in the program process,
 * where the order of the class constructors is the program's order). The provider decides from that input and
 * the resource's own state alone, never from the order in which the engine calls it, which for two resources
 * waiting on one output changes from run to run. A resource with an earlier one stands by: it is recorded in the
 * state holding nothing, and its create or update fails naming the holder, every run alike.
 *
 * Recording it is what lets either removal converge in one `pulumi up`. The engine deletes the resources the
 * program no longer declares only once the program's own resources are created and updated (the removed one's
 * delete follows the remaining one's create or update in the same run; tests/e2e/attachment-duplicates shows
 * it), and a delete is the only call that carries a removed resource's state. So a resource refused at
 * `check` and left out of the state could not tell, when its holder leaves, that the attachment it finds is its
 * stack's and not another stack's; a standby's state names the holder and its node, and its update takes the
 * attachment over from there. Removing a standby detaches nothing.
 *
 * What one provider process learns during a run is kept in `AttachmentClaims`: which resource holds each
 * attachment, so that the delete of a removed holder, which comes last, leaves the attachment to the resource
 * that took it over; and the outcome of each resource, so that a holder that finds a resource declared before
 * it waits for that one to hold the attachment before it stands down. All dynamic resources of a stack share
 * one provider process during a run (dynamic-provider notes).
 */
import { Problems, str, type Inputs } from "../common/check";
import { subjectOf } from "../common/resource";
import { containsUnknown, isUnknown } from "../common/unknown";
import { VOLUME_URI, attachmentId, type DeclaredClaim, type DeclaredClaimInput } from "./types";
import { volumePath } from "./observe";
import { isPlainObject } from "../common/typed";

/** What a claim is on: one volume in one cluster of one project. */
export interface ClaimTarget {
  projectId: string;
  kaasId: string;
  volumeUri: string;
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

/**
 * Validates `declaredBefore` as the SDK class sends it and keeps the entries of the project `projectId` (an
 * entry without a project takes `defaultProjectId`), without their project: the checked form, which the state
 * records. An empty list is no list, so a resource that holds its attachment records none, as it did before
 * the input existed. Unknown values (a preview) are kept as they are.
 */
export function checkDeclaredBefore(
  value: unknown,
  projectId: unknown,
  defaultProjectId: string | undefined,
  problems: Problems,
): unknown {
  if (value === undefined || value === null) return undefined;
  if (containsUnknown(value) || isUnknown(projectId)) return value;
  const refusal =
    "must be the list the VolumeAttachment class sets (the attachments of the same volume declared before this one)";
  if (!Array.isArray(value) || !value.every(isDeclaredClaimInput)) {
    problems.add("declaredBefore", refusal);
    return undefined;
  }
  const kept = value
    .filter((entry) => (entry.projectId ?? defaultProjectId) === projectId)
    .map(({ scope, nodePoolName, nodeId }): DeclaredClaim => ({ scope, nodePoolName, nodeId }));
  return kept.length > 0 ? kept : undefined;
}

/** Whether a value is a `declaredBefore` entry as the SDK class writes it. */
function isDeclaredClaimInput(entry: unknown): entry is DeclaredClaimInput {
  if (!isPlainObject(entry)) return false;
  const { scope, nodePoolName, nodeId, projectId } = entry;
  return (
    [scope, nodePoolName, nodeId].every((part) => typeof part === "string" && part !== "") &&
    (projectId === undefined || projectId === null || typeof projectId === "string")
  );
}

/**
 * The resource a bag of checked inputs (or a state) stands by for: the first one declared before it, which
 * holds the attachment. `null` when this resource holds it itself (nothing declared before it, or a state
 * written before `declaredBefore` existed); `undefined` while that is unknown (a preview).
 */
export function holderOf(inputs: Inputs): DeclaredClaim | null | undefined {
  const before = inputs.declaredBefore;
  if (before === undefined || before === null) return null;
  if (containsUnknown(before)) return undefined;
  // `declaredBefore` is written by `check` (`checkDeclaredBefore`), entries of this shape only.
  return Array.isArray(before) && before.length > 0 ? (before[0] as DeclaredClaim) : null;
}

/** How messages name a resource by its scope: `VolumeAttachment "data"`. */
export const claimantText = (scope: string): string =>
  subjectOf("VolumeAttachment", { creationScope: scope });

/** The name alone, as the advice in a message quotes it: `"data"`. */
const nameOf = (scope: string): string => JSON.stringify(scope.split("/").pop());

/**
 * Why a standby holds nothing, after its volume: the holder, the attachment id and both ways out. The same text
 * every run, whichever of create or update refuses it, and in the line `check` prints at preview.
 */
export const standbyReason = (scope: string, holder: DeclaredClaim, id: string): string =>
  `belongs to ${claimantText(holder.scope)}, declared before it in this stack (${id}); a volume is attached ` +
  `once per cluster. ${nameOf(scope)} holds nothing: remove it, or remove ${nameOf(holder.scope)} and ` +
  `${nameOf(scope)} takes the attachment over`;

/**
 * Why a holder does not stand down although the program now declares `before` first: `before` did not take
 * the attachment over in this run (it is new and found the attachment in place, or it failed).
 */
export const keptReason = (scope: string, before: DeclaredClaim, id: string): string =>
  `is declared again, before this resource, by ${claimantText(before.scope)}, which did not take the ` +
  `attachment over (${id}); ${nameOf(scope)} keeps it. Declare ${nameOf(before.scope)} after ` +
  `${nameOf(scope)}, or remove one of them`;

/** The progress line of a `delete` that leaves the attachment to another resource of the stack. */
export const leftToHolderLine = (volumeUri: string, holderScope: string, id: string): string =>
  `${volumeUri} is attached by ${claimantText(holderScope)} of this stack (${id}), not by this resource: ` +
  "nothing to detach";

/** The progress line of the `delete` of a resource that stood by for `holderScope`. */
export const standbyDeleteLine = (volumeUri: string, holderScope: string): string =>
  `stood by for ${claimantText(holderScope)} and holds nothing of ${volumeUri}: nothing to detach`;

/** What one resource's run came to, as far as holding its attachment goes. */
interface Outcome {
  /** Whether it holds the attachment; undefined until its check, create or update decides. */
  holds?: boolean;
  waiters: ((holds: boolean | undefined) => void)[];
}

/**
 * What one provider process learns in a run about the attachments: who holds each one, and each resource's
 * outcome. A volume's path and full URL are one volume, so keys use its path.
 */
export class AttachmentClaims {
  /** Target key -> scope -> attachment id, for every resource that holds the target in this run. */
  private readonly holders = new Map<string, Map<string, string>>();
  /** Target key and scope -> that resource's outcome. */
  private readonly outcomes = new Map<string, Outcome>();

  private static key({ projectId, kaasId, volumeUri }: ClaimTarget): string {
    return JSON.stringify([projectId, kaasId, volumePath(volumeUri)]);
  }

  private outcomeOf(target: ClaimTarget, scope: string): Outcome {
    const key = JSON.stringify([AttachmentClaims.key(target), scope]);
    let outcome = this.outcomes.get(key);
    if (!outcome) {
      outcome = { waiters: [] };
      this.outcomes.set(key, outcome);
    }
    return outcome;
  }

  private settle(target: ClaimTarget, scope: string, holds: boolean): void {
    const outcome = this.outcomeOf(target, scope);
    outcome.holds = holds;
    for (const wake of outcome.waiters.splice(0)) wake(holds);
  }

  /**
   * Records that `scope` holds `target`: the state holds it for that resource and nothing is to change, or its
   * create or update made it (or was recorded with an error once its attach was accepted).
   */
  hold(target: ClaimTarget, scope: string): void {
    const key = AttachmentClaims.key(target);
    const byScope = this.holders.get(key) ?? new Map<string, string>();
    byScope.set(scope, attachmentId(target.kaasId, target.volumeUri));
    this.holders.set(key, byScope);
    this.settle(target, scope, true);
  }

  /**
   * Records that `scope` does not hold `target` in this run: it stands by, its check failed, or its create
   * failed with nothing recorded.
   */
  miss(target: ClaimTarget, scope: string): void {
    this.holders.get(AttachmentClaims.key(target))?.delete(scope);
    this.settle(target, scope, false);
  }

  /** Records that a create or update of `scope` is to decide whether it holds `target`. */
  expect(target: ClaimTarget, scope: string): void {
    this.outcomeOf(target, scope).holds = undefined;
  }

  /** Forgets that `scope` holds `target`: its own detach went through (a delete, or a replacement's delete). */
  release(target: ClaimTarget, scope: string): void {
    this.holders.get(AttachmentClaims.key(target))?.delete(scope);
  }

  /** Another resource of this run that holds `target`, as `{scope, id}`, if any. */
  otherHolder(target: ClaimTarget, scope: string): { scope: string; id: string } | undefined {
    for (const [holder, id] of this.holders.get(AttachmentClaims.key(target)) ?? []) {
      if (holder !== scope) return { scope: holder, id };
    }
    return undefined;
  }

  /**
   * Whether `scope` holds `target` once its check, create or update has decided: at once when it has, else when
   * it does, or `undefined` at `until` (epoch ms) if it has not by then.
   */
  outcome(target: ClaimTarget, scope: string, until: number): Promise<boolean | undefined> {
    const outcome = this.outcomeOf(target, scope);
    if (outcome.holds !== undefined) return Promise.resolve(outcome.holds);
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          outcome.waiters = outcome.waiters.filter((w) => w !== wake);
          resolve(undefined);
        },
        Math.max(0, until - Date.now()),
      );
      const wake = (holds: boolean | undefined) => {
        clearTimeout(timer);
        resolve(holds);
      };
      outcome.waiters.push(wake);
    });
  }

  /** Forgets everything. */
  clear(): void {
    this.holders.clear();
    this.outcomes.clear();
  }
}

/** The claims of this provider process, shared by every VolumeAttachment provider in it. */
export const PROCESS_CLAIMS = new AttachmentClaims();
