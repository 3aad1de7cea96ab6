/**
 * Which VolumeAttachment of a stack holds an attachment when several of them attach the same volume to the
 * same cluster (they share one id, `<kaasId>:<volumeUri>`), and the rule that keeps the state true: a resource
 * the service does not hold for it is never in the state. Of two, one is created and the other's create fails
 * with a plain error (no id, so the engine records nothing of it) before any request that changes anything,
 * naming the one that holds it. Removing the refused one from the program then changes nothing.
 *
 * Which one: on the dynamic path, the first the program declares. The SDK class gives each VolumeAttachment the
 * ones the program declared before it with the same volume and cluster (`declaredBefore`, set in the program
 * process, where the order of the class constructors is the program's order), so the provider refuses a later
 * one from its own inputs, never from the order in which the engine calls it, which for two resources waiting
 * on one output changes from run to run. On the plugin path no input says the program's order (a Check or
 * Create sees its own resource only; its URN names the stack): there the one that holds it is the one already
 * in the state, else the one whose create started first in the run.
 *
 * What one provider process learns during a run is kept in `AttachmentClaims`: which resource of the stack
 * holds each attachment (one in the state, noted at its check; one whose attach the service accepted, or that
 * took an attachment over), and which creates are under way, so that a create waits for those of its volume
 * that started before it and is refused if one of them holds the attachment. A create that finds the volume
 * attached cannot tell a resource of its own stack from another stack's but through these claims, so it waits
 * a moment for the check of one that holds it in the state while the engine still checks VolumeAttachments
 * (`holderWithin`: it may start a create before it has the registration of a resource beside it); on the plugin
 * path the state names the resource of the stack that holds what it found, if any, and the create waits for
 * that one's check longer, or not at all when the state names none (`VolumeAttachmentProvider`). The delete
 * of a removed holder, which the engine runs after every create and update, leaves the attachment to the
 * resource that holds it in this run. All dynamic resources of a stack share one provider process during a run
 * (dynamic-provider notes); on the plugin path, one plugin process serves the stack's resources of a provider.
 *
 * A state written by an earlier version may hold a later one recorded standing by, holding nothing (its
 * state has `declaredBefore`): its diff replaces it (its delete detaches nothing, and the create that follows
 * is refused or attaches, by the rules above), and a refresh drops it.
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
 * The first resource declared before the one of a bag of checked inputs, which holds the attachment: in the
 * inputs of a create, the reason it is refused; in a state, that an earlier version recorded it standing by,
 * holding nothing (no state this version writes has one). `null` when there is none (nothing declared before
 * it, or a state written before `declaredBefore` existed); `undefined` while that is unknown (a preview).
 */
export function holderOf(inputs: Inputs): DeclaredClaim | null | undefined {
  const before = inputs.declaredBefore;
  if (before === undefined || before === null) return null;
  if (containsUnknown(before)) return undefined;
  // `declaredBefore` is written by `check` (`checkDeclaredBefore`), entries of this shape only.
  const first: unknown = Array.isArray(before) ? before[0] : undefined;
  return isDeclaredClaimInput(first) ? first : null;
}

/** How messages name a resource by its scope: `VolumeAttachment "data"`. */
export const claimantText = (scope: string): string =>
  subjectOf("VolumeAttachment", { creationScope: scope });

/** The name alone, as the advice in a message quotes it: `"data"`. */
const nameOf = (scope: string): string => JSON.stringify(scope.split("/").pop());

/**
 * How the resource that holds an attachment relates to the refused one: declared before it (the dynamic path's
 * `declaredBefore`), or another resource of the stack (in the state already, or created first in the run).
 */
export type HolderRelation = "declaredBefore" | "ofStack";

/**
 * Why the create of `scope` is refused, after its volume: the resource that holds the attachment, the
 * attachment id and what to do. The same text every run, and in the line `check` prints at preview.
 */
export const duplicateReason = (
  scope: string,
  holderScope: string,
  id: string,
  relation: HolderRelation,
): string =>
  `is already attached by ${claimantText(holderScope)}, ` +
  `${relation === "declaredBefore" ? "declared before it in this stack" : "another resource of this stack"} ` +
  `(${id}): a volume is attached once per cluster, so ${nameOf(scope)} is not created. Remove one of them; ` +
  `removing ${nameOf(scope)} changes nothing`;

/** The progress line of a `delete` that leaves the attachment to another resource of the stack. */
export const leftToHolderLine = (volumeUri: string, holderScope: string, id: string): string =>
  `${volumeUri} is attached by ${claimantText(holderScope)} of this stack (${id}), not by this resource: ` +
  "nothing to detach";

/** The progress line of the `delete` of a resource an earlier version recorded holding nothing. */
export const standbyDeleteLine = (volumeUri: string, holderScope: string): string =>
  `stood by for ${claimantText(holderScope)} and holds nothing of ${volumeUri}: nothing to detach`;

/** The progress line of the refresh that drops such a resource from the state. */
export const standbyDroppedLine = (volumeUri: string, holderScope: string): string =>
  `holds nothing of ${volumeUri} (${claimantText(holderScope)} holds it): dropped from the state`;

/** A create under way in this run, until it decides whether its resource holds the attachment. */
interface CreateUnderWay {
  scope: string;
  decided: Promise<boolean>;
  decide: (holds: boolean) => void;
}

/** `promise`'s value, or undefined at `until` (epoch ms) if it has not settled by then. */
function byDeadline<T>(promise: Promise<T>, until: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, until - Date.now()));
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * What one provider process learns in a run about the attachments: who holds each one, and the creates under
 * way. A volume's path and full URL are one volume, so keys use its path.
 */
export class AttachmentClaims {
  /** Target key -> scope -> attachment id, for every resource that holds the target in this run. */
  private readonly holders = new Map<string, Map<string, string>>();
  /** Target key -> the creates of that target under way, in the order they started. */
  private readonly creating = new Map<string, CreateUnderWay[]>();
  /** Target key -> those waiting for a holder of that target (`holderWithin`). */
  private readonly awaitingHolder = new Map<string, (() => void)[]>();
  /** When this process last checked a VolumeAttachment (epoch ms): the engine is still registering them. */
  private lastCheckAt = 0;

  /** Notes that a VolumeAttachment is being checked. */
  checking(): void {
    this.lastCheckAt = Date.now();
  }

  private static key({ projectId, kaasId, volumeUri }: ClaimTarget): string {
    return JSON.stringify([projectId, kaasId, volumePath(volumeUri)]);
  }

  /** Ends the create of `scope` under way, if any, with its outcome. */
  private settle(target: ClaimTarget, scope: string, holds: boolean): void {
    const key = AttachmentClaims.key(target);
    const underWay = this.creating.get(key) ?? [];
    for (const create of underWay) if (create.scope === scope) create.decide(holds);
    this.creating.set(
      key,
      underWay.filter((create) => create.scope !== scope),
    );
  }

  /**
   * Records that `scope` holds `target`: the state holds it for that resource and nothing is to change, the
   * service accepted its attach, or it took an existing attachment over.
   */
  hold(target: ClaimTarget, scope: string): void {
    const key = AttachmentClaims.key(target);
    const byScope = this.holders.get(key) ?? new Map<string, string>();
    byScope.set(scope, attachmentId(target.kaasId, target.volumeUri));
    this.holders.set(key, byScope);
    this.settle(target, scope, true);
    for (const wake of this.awaitingHolder.get(key)?.splice(0) ?? []) wake();
  }

  /** Records that `scope` does not hold `target` in this run: its check or its create failed, recording nothing. */
  miss(target: ClaimTarget, scope: string): void {
    this.holders.get(AttachmentClaims.key(target))?.delete(scope);
    this.settle(target, scope, false);
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
   * Notes that the create of `scope` starts, then waits until every create of `target` by another resource
   * that started before it has decided (each at the latest at `until`, epoch ms), and answers the other
   * resource that holds `target` then, if any. Two creates never wait for each other: each waits only for those
   * that started before it. Its own outcome is decided by `hold` or `miss`.
   */
  async startCreate(
    target: ClaimTarget,
    scope: string,
    until: number,
  ): Promise<{ scope: string; id: string } | undefined> {
    const key = AttachmentClaims.key(target);
    const underWay = this.creating.get(key) ?? [];
    const earlier = underWay.filter((create) => create.scope !== scope);
    let decide: (holds: boolean) => void = () => undefined;
    const decided = new Promise<boolean>((resolve) => {
      decide = resolve;
    });
    this.creating.set(key, [...underWay, { scope, decided, decide }]);
    for (const create of earlier) await byDeadline(create.decided, until);
    return this.otherHolder(target, scope);
  }

  /**
   * Another resource that holds `target`, as `otherHolder` answers, once one does, or once no VolumeAttachment
   * was checked for `quietMs`, at the latest at `until` (epoch ms): for a create that finds its volume attached,
   * while the check of a resource that holds it in the state may still be on its way (the engine checks each
   * resource when the program registers it, and may start a create before it has the registration of a
   * resource the program declared beside it).
   */
  async holderWithin(
    target: ClaimTarget,
    scope: string,
    quietMs: number,
    until: number,
  ): Promise<{ scope: string; id: string } | undefined> {
    const key = AttachmentClaims.key(target);
    const waitUntil = () => Math.min(until, this.lastCheckAt + quietMs);
    while (this.otherHolder(target, scope) === undefined && Date.now() < waitUntil()) {
      const waiters = this.awaitingHolder.get(key) ?? [];
      this.awaitingHolder.set(key, waiters);
      let wake: () => void = () => undefined;
      const woken = new Promise<void>((resolve) => {
        wake = resolve;
        waiters.push(resolve);
      });
      await byDeadline(woken, waitUntil());
      this.awaitingHolder.set(
        key,
        (this.awaitingHolder.get(key) ?? []).filter((waiter) => waiter !== wake),
      );
    }
    return this.otherHolder(target, scope);
  }

  /** Forgets everything. */
  clear(): void {
    this.holders.clear();
    this.creating.clear();
    this.awaitingHolder.clear();
  }
}

/** The claims of this provider process, shared by every VolumeAttachment provider in it. */
export const PROCESS_CLAIMS = new AttachmentClaims();
