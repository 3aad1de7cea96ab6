/**
 * The VolumeAttachment provider. Loaded lazily in the provider process; never serialized.
 *
 * The published cluster responses do not list attached volumes (api-notes "What the published interface
 * does not show"). Each response is read for what it shows (`observe.ts`): where it shows attachments
 * (`attachedVolumes`, or the volume among the linked resources) every wait watches the attachment itself;
 * where it shows nothing, the service's acceptance of the attach or detach is the result once the cluster
 * is settled, refresh keeps the attachment as declared, and the output `verification` says `none`.
 */
import type { KaasResponse } from "../../schemas";
import type { VendorContainerClient } from "../../rest/client";
import { isNotFound, isVendorApiError, type VendorApiError } from "../../rest/errors";
import { classifyState, isBusyState, type StateNames, type WaitVerdict } from "../../rest/waiter";
import type { Inputs } from "../common/check";
import { checkContext, client, defaultProjectId, log, progress } from "../common/context";
import { partialFailure } from "../common/failure";
import type { CheckResult } from "../common/arguments";
import { jsonSafe } from "../common/outputs";
import { deadlineOf, errorText, refreshedInputs } from "../common/resource";
import { importTarget, projectOf, providerFrame, readRequest } from "../common/frame";
import { checkVolumeAttachment } from "./check";
import {
  PROCESS_CLAIMS,
  claimScopeOf,
  claimTargetOf,
  claimantText,
  holderOf,
  keptReason,
  leftToHolderLine,
  sameClaimTarget,
  standbyDeleteLine,
  standbyReason,
  type AttachmentClaims,
  type ClaimTarget,
} from "./claims";
import { decideAttach, unconfirmedMessage, type AttachAnswer, type AttachSubject } from "./attachDecision";
import { diffVolumeAttachment } from "./diff";
import { isNodeGone } from "./nodeGone";
import { verificationOf, viewAttachment, type AttachmentView, type Verification } from "./observe";
import { attachmentId, type CheckedVolumeAttachmentInputs, type DeclaredClaim } from "./types";
import { volumeAction } from "../../schemas/volumeAction";
import { carriesId, numberOrNull } from "../common/typed";

const MINUTE = 60_000;
const DEFAULT_TIMEOUTS = { create: 15 * MINUTE, update: 15 * MINUTE, delete: 15 * MINUTE };
const { subjectOf, inputsOf, located } = providerFrame<CheckedVolumeAttachmentInputs>("VolumeAttachment", [
  "sizeGb",
  "verification",
]);

/** One look at the cluster during a wait. Never undefined, so a cluster that is gone is judged, not failed. */
interface ClusterLook {
  status?: KaasResponse["status"];
  cluster: KaasResponse | undefined;
}

/**
 * Verdict for "attached to `nodeId`" on one look: seen there is done, seen on another node fails, not seen
 * yet is pending. Where the response shows no attachments, the accepted attach is done once the cluster is
 * settled (it may pass `Updating` while the service works).
 */
function attachedTo(volumeUri: string, nodeId: string) {
  return ({ cluster }: ClusterLook, states: StateNames): WaitVerdict => {
    if (!cluster) return { kind: "failed", reason: "the cluster no longer exists" };
    const view = viewAttachment(cluster, volumeUri);
    switch (view.shows) {
      case "attachedVolumes": {
        const a = view.attachment;
        if (a === undefined) return { kind: "pending", state: "attaching" };
        return a.nodeId === nodeId
          ? { kind: "done" }
          : { kind: "failed", reason: `attached to node ${a.nodeId ?? "(gone)"} instead of ${nodeId}` };
      }
      case "linkedResources":
        return view.linked ? { kind: "done" } : { kind: "pending", state: "attaching" };
      case "nothing":
        return classifyState(cluster.status, states);
    }
  };
}

/**
 * Verdict for "detached" on one look: done once the volume is no longer shown, or the cluster is gone. Where
 * the response shows no attachments, done once the cluster is out of its transitional states.
 */
function detachedFrom(volumeUri: string) {
  return ({ cluster }: ClusterLook, states: StateNames): WaitVerdict => {
    if (!cluster) return { kind: "done" };
    const view = viewAttachment(cluster, volumeUri);
    if (view.shows === "nothing") {
      const state = cluster.status?.state ?? "";
      return isBusyState(state, states) ? { kind: "pending", state } : { kind: "done" };
    }
    return shownAttached(view) ? { kind: "pending", state: "detaching" } : { kind: "done" };
  };
}

/** Whether a view that shows attachments shows this volume attached (to any node). */
const shownAttached = (view: AttachmentView): boolean =>
  view.shows === "attachedVolumes"
    ? view.attachment !== undefined
    : view.shows === "linkedResources" && view.linked;

/** The service's refusal of an attach because the volume is attached already (to any node of the cluster). */
const isAlreadyAttached = (error: unknown): error is VendorApiError =>
  isVendorApiError(error) && error.status === 400 && /already attached/i.test(error.message);

/** Whether a thrown value is a partial failure: the engine records the resource with its id. */
const isPartialFailure = carriesId;

/**
 * The VolumeAttachment provider. The engine hands `create` and `update` the inputs `check` returned, so they
 * take the checked inputs; the state it hands back is read through `inputsOf`.
 *
 * Of the resources of a stack with the same volume and cluster, the first the program declares holds the
 * attachment (`claims.ts`): each later one stands by, recorded with nothing attached, its create or update
 * failing with the same message every run; its delete detaches nothing; it takes the attachment over in the
 * update that finds nothing declared before it any more. The delete of a holder whose attachment another
 * resource of the run holds detaches nothing.
 */
export class VolumeAttachmentProvider {
  constructor(
    private readonly api: () => VendorContainerClient = client,
    private readonly claims: AttachmentClaims = PROCESS_CLAIMS,
  ) {}

  /**
   * Validates the inputs and notes in the process's claims what this run will make of the resource: it holds
   * the attachment already (its state holds it and it stays first), its create or update is to decide, or it
   * holds nothing (it stands by, or its inputs are refused). A resource that stands by is not refused here:
   * its create or update records it (see `claims.ts`); the preview prints why it will hold nothing.
   */
  async check(olds: Inputs, news: Inputs): Promise<CheckResult<CheckedVolumeAttachmentInputs>> {
    const context = checkContext();
    const result = checkVolumeAttachment(olds, news, context);
    const scope = claimScopeOf(result.inputs);
    const target = claimTargetOf(result.inputs);
    // Unknown in a preview (a cluster still to be created): create and update decide.
    if (scope === undefined || target === undefined) return result;
    const holder = holderOf(result.inputs);
    if (result.failures.length > 0 || holder) {
      this.claims.miss(target, scope);
      if (result.failures.length === 0 && holder)
        log(subjectOf(result.inputs), `${target.volumeUri} ${this.standbyText(result.inputs, holder)}`);
      return result;
    }
    const before = claimTargetOf(olds, context.defaultProjectId);
    const heldInState = before !== undefined && sameClaimTarget(before, target) && holderOf(olds) === null;
    if (heldInState && holder === null) this.claims.hold(target, scope);
    else this.claims.expect(target, scope);
    return result;
  }

  /** Why `inputs`, standing by for `holder`, hold nothing: `claims.ts` `standbyReason`. */
  private standbyText(inputs: Inputs, holder: DeclaredClaim): string {
    const id = attachmentId(String(inputs.kaasId), String(inputs.volumeUri));
    return standbyReason(claimScopeOf(inputs) ?? "", holder, id);
  }

  async diff(_id: string, olds: Inputs, news: Inputs) {
    const { changes, replaces, deleteBeforeReplace } = diffVolumeAttachment(olds, news);
    return { changes, replaces, deleteBeforeReplace };
  }

  /** Polls the cluster through the client's waiter until `judge` is satisfied. */
  private watch(
    api: VendorContainerClient,
    { projectId, kaasId }: CheckedVolumeAttachmentInputs,
    args: { what: string; until: number; target: string; afterMutation: boolean },
    judge: (look: ClusterLook, states: StateNames) => WaitVerdict,
  ): Promise<ClusterLook> {
    return api.waitUntilSettled<ClusterLook>(
      async () => {
        const cluster = await api.find("getKaas", { projectId, id: kaasId });
        return { status: cluster?.status, cluster };
      },
      {
        what: args.what,
        path: `/kaas/${kaasId}`,
        deadline: args.until,
        onProgress: progress,
        judge,
        target: args.target,
        afterMutation: args.afterMutation,
      },
    );
  }

  /** Outputs from the last look at the cluster; `previous` outputs keep a size no response shows any more. */
  private outputs(
    inputs: CheckedVolumeAttachmentInputs,
    cluster: KaasResponse | undefined,
    previous: Inputs = {},
  ): Inputs {
    const view: AttachmentView = cluster ? viewAttachment(cluster, inputs.volumeUri) : { shows: "nothing" };
    const verification: Verification = verificationOf(view, inputs.nodeId) ?? "none";
    const sizeGb =
      view.shows === "attachedVolumes" ? (view.attachment?.sizeGb ?? null) : numberOrNull(previous.sizeGb);
    return jsonSafe({ ...inputsOf(inputs), sizeGb, verification });
  }

  /** Rewrites a refusal caused by the cluster's storage limit so that it names the limit. */
  private async explain(
    api: VendorContainerClient,
    inputs: CheckedVolumeAttachmentInputs,
    error: unknown,
  ): Promise<unknown> {
    if (
      !isVendorApiError(error) ||
      error.status !== 400 ||
      !/maxCumulativeVolumeSize|storage limit/i.test(error.message)
    )
      return error;
    const cluster = await api
      .find("getKaas", { projectId: inputs.projectId, id: inputs.kaasId })
      .catch(() => undefined);
    const limit = cluster?.properties.storage?.maxCumulativeVolumeSize;
    return new Error(
      `${subjectOf(inputs)}: attaching ${inputs.volumeUri} would exceed the cluster's storage limit ` +
        `maxCumulativeVolumeSize${limit !== undefined && limit !== null ? ` (${limit} GB)` : ""}: ${error.message}`,
    );
  }

  /**
   * Attaches at node level and waits until the cluster shows the attachment on that node, or, where the
   * cluster shows no attachments, until the cluster is settled after the accepted attach.
   *
   * Taking over (`adoptId`, or an attachment already on the declared node): where `attachedVolumes` shows
   * it, it must be on the declared node; where only linked resources show it, it must be linked to the
   * cluster, its node is taken as declared, and without `adoptId` it is refused; where nothing shows
   * attachments, the attach is sent anyway: a 2xx means it was not attached and now is, a refusal "already
   * attached" means it is attached somewhere in the cluster and is taken over only with `adoptId`.
   * Which of these applies is decided by `decideAttach` (attachDecision.ts), from what the cluster shows,
   * `adoptId` and the attach's answer; this method reads, sends and waits.
   *
   * A resource that stands by for one declared before it (`claims.ts`) sends nothing: it is recorded holding
   * nothing, with an init error naming the holder. A failure carries the id (a partial failure, recorded in
   * the state) only once the attachment is this resource's: its attach was accepted, or it took one over. A
   * refusal "already attached" that the cluster then does not show on the declared node is a plain error:
   * nothing of it is recorded, and a later removal from the program cannot detach an attachment that is not
   * this resource's.
   */
  async create(inputs: CheckedVolumeAttachmentInputs): Promise<{ id: string; outs: Inputs }> {
    const scope = claimScopeOf(inputs);
    const target = claimTargetOf(inputs);
    const holder = holderOf(inputs);
    if (holder) {
      if (scope !== undefined && target !== undefined) this.claims.miss(target, scope);
      throw this.standbyFailure(inputs, holder);
    }
    return this.settled(target, scope, this.attach(inputs));
  }

  /**
   * `made`, noting its outcome in the claims: a success, or a partial failure (recorded with the id, so the
   * state holds the attachment), holds it; any other failure records nothing and holds nothing.
   */
  private async settled<T>(target: ClaimTarget | undefined, scope: string | undefined, made: Promise<T>) {
    try {
      const result = await made;
      if (target && scope !== undefined) this.claims.hold(target, scope);
      return result;
    } catch (error) {
      if (target && scope !== undefined) {
        if (isPartialFailure(error)) this.claims.hold(target, scope);
        else this.claims.miss(target, scope);
      }
      throw error;
    }
  }

  /**
   * The failure that records a resource standing by for `holder`: its inputs, nothing attached (`sizeGb` null,
   * `verification` "none"), and the init error that says why. Nothing is sent.
   */
  private standbyFailure(inputs: CheckedVolumeAttachmentInputs, holder: DeclaredClaim): Error {
    const id = attachmentId(inputs.kaasId, inputs.volumeUri);
    return partialFailure(
      id,
      jsonSafe({ ...inputsOf(inputs), sizeGb: null, verification: "none" }),
      inputs,
      `${subjectOf(inputs)}: ${inputs.volumeUri} ${this.standbyText(inputs, holder)}`,
    );
  }

  /** `create` of the resource that holds the attachment: see `create`. */
  private async attach(inputs: CheckedVolumeAttachmentInputs): Promise<{ id: string; outs: Inputs }> {
    const api = this.api();
    const { projectId, kaasId, volumeUri, nodeId } = inputs;
    const what = subjectOf(inputs);
    const until = deadlineOf(inputs, "create", DEFAULT_TIMEOUTS);
    const id = attachmentId(kaasId, volumeUri);
    const cluster = await api.find("getKaas", { projectId, id: kaasId });
    if (!cluster) throw new Error(`${what}: cluster ${kaasId} does not exist in project ${projectId}`);
    const view = viewAttachment(cluster, volumeUri);
    const subject: AttachSubject = { what, kaasId, volumeUri, nodeId, adoptId: inputs.adoptId };
    let outcome = decideAttach(subject, view);
    if (outcome.kind === "send") {
      let refusal: unknown;
      let answer: AttachAnswer;
      try {
        await api.call(
          "attachVolume",
          { projectId, id: kaasId, pool: inputs.nodePoolName, node: nodeId },
          volumeAction(volumeUri),
        );
        answer = { kind: "accepted" };
      } catch (error) {
        refusal = error;
        answer = isAlreadyAttached(error)
          ? { kind: "alreadyAttached", afterLostAnswer: error.afterLostAnswer, text: errorText(error) }
          : { kind: "otherRefusal" };
      }
      outcome = decideAttach(subject, view, answer);
      if (outcome.kind === "fail") throw await this.explain(api, inputs, refusal);
    }
    switch (outcome.kind) {
      case "refuse":
        throw new Error(outcome.message);
      case "takeOver":
      case "attached":
      case "adopt":
        log(what, outcome.line);
        break;
      case "confirm":
        // Nothing to say before the wait: the wait decides whether the answer held.
        break;
      case "send":
      case "fail":
        // Settled above: with the attach's answer the decision is never `send`, and a `fail` has thrown.
        break;
    }
    try {
      const live = await this.watch(
        api,
        inputs,
        { what: `${what} (${id})`, until, target: "attached", afterMutation: outcome.kind !== "takeOver" },
        attachedTo(volumeUri, nodeId),
      );
      return { id, outs: this.outputs(inputs, live.cluster) };
    } catch (error) {
      if (outcome.kind === "confirm") throw new Error(unconfirmedMessage(subject, errorText(error)));
      throw partialFailure(
        id,
        jsonSafe({ ...inputsOf(inputs), sizeGb: null, verification: "none" }),
        inputs,
        `${what} (${id}) attach did not complete: ${errorText(error)}`,
      );
    }
  }

  /**
   * Updates in place `timeouts`, and which resource of the stack holds the attachment (`declaredBefore`,
   * `claims.ts`), from what the state says (`olds`) to what the program declares now:
   * - holding it before and now: nothing to send; waits for a pending attach (partial failure resume);
   * - standing by before and now: refused again, recording the holder it now stands by for;
   * - standing by before, first now: takes the attachment over from the holder its state names (`takeOver`);
   * - holding it before, standing by now: stands down once the resource now declared first holds it in this
   *   run (`standDown`).
   */
  async update(id: string, olds: Inputs, news: CheckedVolumeAttachmentInputs): Promise<{ outs: Inputs }> {
    const scope = claimScopeOf(news);
    const target = claimTargetOf(news);
    const heldBefore = holderOf(olds);
    const holder = holderOf(news);
    if (holder) {
      if (heldBefore === null && target && scope !== undefined)
        return this.standDown(id, olds, news, holder, { target, scope });
      if (target && scope !== undefined) this.claims.miss(target, scope);
      throw this.standbyFailure(news, holder);
    }
    if (heldBefore) return this.takeOver(id, olds, news, heldBefore);
    return this.settled(target, scope, this.resume(id, olds, news));
  }

  /** `update` of a resource that holds its attachment before and after: see `update`. */
  private async resume(
    id: string,
    olds: Inputs,
    news: CheckedVolumeAttachmentInputs,
  ): Promise<{ outs: Inputs }> {
    const api = this.api();
    const live = await this.watch(
      api,
      news,
      {
        what: `${subjectOf(news)} (${id})`,
        until: deadlineOf(news, "update", DEFAULT_TIMEOUTS),
        target: "attached",
        afterMutation: false,
      },
      attachedTo(news.volumeUri, news.nodeId),
    );
    return { outs: this.outputs(news, live.cluster, olds) };
  }

  /**
   * `update` of a standby that nothing is declared before any more (its holder left the program, or is declared
   * after it now): it takes the attachment over from `holder`, as its state names it. On the holder's node the
   * attachment is this resource's as it stands, and nothing is sent (where the cluster shows attachments and
   * not this one, it is attached anew); on another node, the holder's attachment is detached as the holder's
   * delete would detach it, then this resource attaches. The holder's delete, if it was removed, comes after
   * this in the run and leaves the attachment alone (`delete`).
   *
   * Until this resource's attach is accepted nothing of it is attached, so a failure records it standing by
   * as before (its old state) and the next `up` tries again; after that, a failure records it holding the
   * attachment, and the next `up` waits for it.
   */
  private async takeOver(
    id: string,
    olds: Inputs,
    news: CheckedVolumeAttachmentInputs,
    holder: DeclaredClaim,
  ): Promise<{ outs: Inputs }> {
    const scope = claimScopeOf(news);
    const target = claimTargetOf(news);
    try {
      const { outs } = await this.takeOverFrom(id, news, holder);
      if (target && scope !== undefined) this.claims.hold(target, scope);
      return { outs };
    } catch (error) {
      const attached = isPartialFailure(error);
      if (target && scope !== undefined) {
        if (attached) this.claims.hold(target, scope);
        else this.claims.miss(target, scope);
      }
      if (attached) throw error;
      throw partialFailure(
        id,
        jsonSafe({ ...olds, __provider: undefined }),
        news,
        `${subjectOf(news)} (${id}) could not take ${news.volumeUri} over from ` +
          `${claimantText(holder.scope)}: ${errorText(error)}`,
      );
    }
  }

  /** The requests of `takeOver`. */
  private async takeOverFrom(
    id: string,
    inputs: CheckedVolumeAttachmentInputs,
    holder: DeclaredClaim,
  ): Promise<{ id: string; outs: Inputs }> {
    const what = subjectOf(inputs);
    const { projectId, kaasId, volumeUri, nodeId } = inputs;
    const from = `${claimantText(holder.scope)}, which is no longer declared before it`;
    const cluster = await this.api().find("getKaas", { projectId, id: kaasId });
    if (!cluster) throw new Error(`cluster ${kaasId} does not exist in project ${projectId}`);
    const view = viewAttachment(cluster, volumeUri);
    const shownOn = view.shows === "attachedVolumes" ? view.attachment?.nodeId : undefined;
    const sameNode = holder.nodePoolName === inputs.nodePoolName && holder.nodeId === nodeId;
    // Where the cluster shows nodes, an attachment on neither node is not the holder's to hand over.
    if (shownOn !== undefined && shownOn !== null && shownOn !== nodeId && shownOn !== holder.nodeId) {
      throw new Error(
        `${volumeUri} is attached to node ${shownOn} of cluster ${kaasId}, neither node ${nodeId} nor node ` +
          `${holder.nodeId} where ${claimantText(holder.scope)} held it; detach it first`,
      );
    }
    if (shownOn === nodeId || (sameNode && (view.shows === "nothing" || shownAttached(view)))) {
      log(what, `taking ${volumeUri} over from ${from}: it is on node ${nodeId} already, nothing to send`);
      return { id, outs: this.outputs(inputs, cluster) };
    }
    if (!sameNode && (view.shows === "nothing" || shownAttached(view))) {
      log(what, `taking ${volumeUri} over from ${from}: detaching it from node ${holder.nodeId} first`);
      await this.detach(id, { ...inputs, nodePoolName: holder.nodePoolName, nodeId: holder.nodeId });
    }
    // Detached now, or the holder's attachment was gone already (detached out of band): attached anew.
    return this.attach(inputs);
  }

  /**
   * `update` of a resource that holds its attachment while the program now declares another one of the same
   * volume and cluster first: it stands down (recorded holding nothing, refused like any standby) once that one
   * holds the attachment in this run, which its create or update decides (`AttachmentClaims.outcome`, at the
   * latest by this update's deadline). A resource new to the stack cannot take over an attachment it cannot
   * tell from another stack's (`attach`), so if it does not, this one keeps the attachment and fails saying so.
   */
  private async standDown(
    id: string,
    olds: Inputs,
    news: CheckedVolumeAttachmentInputs,
    first: DeclaredClaim,
    { target, scope }: { target: ClaimTarget; scope: string },
  ): Promise<never> {
    const until = deadlineOf(news, "update", DEFAULT_TIMEOUTS);
    if ((await this.claims.outcome(target, first.scope, until)) === true) {
      this.claims.miss(target, scope);
      throw this.standbyFailure(news, first);
    }
    this.claims.hold(target, scope);
    throw partialFailure(
      id,
      jsonSafe({ ...olds, __provider: undefined }),
      news,
      `${subjectOf(news)}: ${news.volumeUri} ${keptReason(scope, first, attachmentId(news.kaasId, news.volumeUri))}`,
    );
  }

  /**
   * Gone when the cluster is gone, or when it shows attachments and not this one; moved when `attachedVolumes`
   * shows it on another node. Where the cluster shows no attachments, kept as declared (`verification: none`):
   * refresh never drops what it cannot see. A standby (`claims.ts`) is kept as it is: it holds nothing to see.
   */
  async read(id: string, props: Inputs): Promise<{ id: string; props: Inputs; inputs?: Inputs }> {
    const { readOnly, state } = readRequest(props);
    if (readOnly) {
      // A `get` stores outputs only.
      const { props: outputs } = await this.readOnly(id, state);
      return { id, props: outputs };
    }
    // A standby holds nothing, so the cluster has nothing of it to show (`claims.ts`): its state stays as is.
    if (holderOf(state)) return { id, props };
    const api = this.api();
    const declared = inputsOf(state);
    const what = subjectOf(declared);
    const volumeUri = declared.volumeUri;
    const cluster = await api.find("getKaas", {
      projectId: located(declared).projectId,
      id: declared.kaasId,
    });
    if (!cluster) {
      log(what, `cluster ${declared.kaasId} no longer exists, and ${volumeUri} is attached to it no more`);
      return { id: "", props: {}, inputs: {} };
    }
    const view = viewAttachment(cluster, volumeUri);
    if (view.shows === "nothing") {
      log(
        what,
        `cannot verify ${volumeUri} on node ${declared.nodeId}: the service does not show volume attachments; ` +
          "kept as declared",
      );
    } else if (!shownAttached(view)) {
      log(what, `${volumeUri} is no longer attached`);
      return { id: "", props: {}, inputs: {} };
    }
    const attachment = view.shows === "attachedVolumes" ? view.attachment : undefined;
    const inputs = jsonSafe({
      ...declared,
      nodeId: attachment?.nodeId ?? declared.nodeId,
      nodePoolName: attachment?.nodePoolName ?? declared.nodePoolName,
    });
    return {
      id,
      props: this.outputs(inputs, cluster, props),
      inputs: refreshedInputs(declared, inputs),
    };
  }

  /**
   * The read of `VolumeAttachment.get`: the attachment `id` (`<kaasId>:<volumeUri>`) as the cluster shows it.
   * Unlike a refresh, which keeps an attachment it cannot see as declared, a `get` has nothing declared to
   * keep: an attachment that the cluster does not show, or cannot show, is an error.
   */
  private async readOnly(
    id: string,
    lookup: Inputs,
    verb: "get" | "import" = "get",
  ): Promise<{ id: string; props: Inputs; inputs: Inputs }> {
    const what = subjectOf(lookup);
    const separator = id.indexOf(":");
    if (separator <= 0)
      throw new Error(`${what}: ${verb}: "${id}" is not an attachment id; give "<kaasId>:<volumeUri>"`);
    const kaasId = id.slice(0, separator);
    const volumeUri = id.slice(separator + 1);
    const projectId = projectOf(lookup) ?? "";
    const cluster = await this.api().find("getKaas", { projectId, id: kaasId });
    if (!cluster) throw new Error(`${what}: ${verb}: no cluster ${kaasId} in project ${projectId}`);
    const view = viewAttachment(cluster, volumeUri);
    if (view.shows === "nothing")
      throw new Error(
        `${what}: ${verb}: cannot read ${volumeUri} on cluster ${kaasId}: the service does not show volume attachments`,
      );
    if (!shownAttached(view))
      throw new Error(`${what}: ${verb}: ${volumeUri} is not attached to cluster ${kaasId}`);
    const attachment = view.shows === "attachedVolumes" ? view.attachment : undefined;
    // The inputs a `get` reports: the lookup and what the cluster shows. Where it shows no node (linked
    // resources only) `nodeId` and `nodePoolName` are absent, which no declared attachment lacks.
    const inputs = jsonSafe({
      ...lookup,
      projectId,
      kaasId,
      volumeUri,
      nodeId: attachment?.nodeId ?? undefined,
      nodePoolName: attachment?.nodePoolName ?? undefined,
    }) as CheckedVolumeAttachmentInputs;
    return { id, props: this.outputs(inputs, cluster, {}), inputs };
  }

  /**
   * `pulumi import` of the attachment `[<projectId>/]<kaasId>:<volumeUri>` names, read as a `get` reads it
   * (the cluster must show it), with the inputs `check` completes. Reads only.
   */
  async importObject(
    importId: string,
    scope: string,
  ): Promise<{ id: string; props: Inputs; inputs: Inputs }> {
    const what = subjectOf({ creationScope: scope });
    const separator = importId.indexOf(":");
    if (separator <= 0)
      throw new Error(
        `${what}: import: "${importId}" is not an attachment id; give "[<projectId>/]<kaasId>:<volumeUri>"`,
      );
    const { id: kaasId, lookup } = importTarget(what, importId.slice(0, separator), []);
    const volumeUri = importId.slice(separator + 1);
    const read = await this.readOnly(
      attachmentId(kaasId, volumeUri),
      { ...lookup, creationScope: scope },
      "import",
    );
    if (read.inputs.nodeId === undefined)
      throw new Error(
        `${what}: import: the service shows ${volumeUri} attached to cluster ${kaasId} but not on which node, ` +
          `so the import cannot record nodeId and nodePoolName; declare this resource with them and ` +
          `adoptId: "${attachmentId(kaasId, volumeUri)}" instead of importing it.`,
      );
    const checked = await this.check(read.inputs, read.inputs);
    return { ...read, inputs: checked.failures.length === 0 ? checked.inputs : read.inputs };
  }

  /**
   * Detaches at node level; when the node no longer holds the volume (gone with a scaled-down or replaced
   * pool: a 404, or a 400 saying so, `nodeGone.ts`) falls back to the cluster-level detach; a 404 there means
   * already detached. Where the cluster shows attachments and not this one, or the cluster is gone, there is
   * nothing to send. Then waits until the volume is no longer shown, or, where nothing shows attachments, until
   * the cluster is settled. Nothing is sent for a resource that stands by, nor when another resource of the
   * stack holds the attachment in this run (`claims.ts`).
   */
  async delete(id: string, props: Inputs): Promise<void> {
    const declared = inputsOf(props);
    const volumeUri = declared.volumeUri;
    const what = subjectOf(declared);
    const standingBy = holderOf(props);
    // A standby holds nothing (`claims.ts`): the attachment is its holder's.
    if (standingBy) {
      log(what, standbyDeleteLine(volumeUri, standingBy.scope));
      return;
    }
    const scope = claimScopeOf(declared);
    const target = claimTargetOf(declared, defaultProjectId());
    const other = target && this.claims.otherHolder(target, scope ?? "");
    // Another resource of the stack holds this attachment in this run: a standby that took it over when this
    // one left the program (the engine deletes removed resources last), a resource renamed without an alias
    // whose new name took it over, or a state written before duplicates were kept apart. Detaching would take
    // it away from that resource.
    if (other) {
      log(what, leftToHolderLine(volumeUri, other.scope, other.id));
      return;
    }
    await this.detach(id, declared);
    // Detached: a create of this resource may follow (a replacement), which holds it again.
    if (target && scope !== undefined) this.claims.release(target, scope);
  }

  /** `delete` of an attachment that is this resource's: see `delete`. */
  private async detach(id: string, declared: CheckedVolumeAttachmentInputs): Promise<void> {
    const api = this.api();
    const { projectId, kaasId, volumeUri } = declared;
    const what = subjectOf(declared);
    const cluster = await api.find("getKaas", { projectId, id: kaasId });
    if (!cluster) return;
    const view = viewAttachment(cluster, volumeUri);
    if (view.shows !== "nothing" && !shownAttached(view)) return;
    let accepted = true;
    try {
      await api.call(
        "detachVolumeFromNode",
        { projectId, id: kaasId, pool: declared.nodePoolName, node: declared.nodeId },
        volumeAction(volumeUri),
      );
    } catch (error) {
      // A 404, or a 400 that says the node is gone (api-notes "Volumes"): see `isNodeGone`.
      if (!isNodeGone(error)) throw error;
      log(what, `node ${declared.nodeId} no longer holds ${volumeUri}; detaching at cluster level`);
      try {
        await api.call("detachVolumeFromCluster", { projectId, id: kaasId }, volumeAction(volumeUri));
      } catch (fallbackError) {
        // Not attached anywhere any more, or a detach already under way (a retried request): the wait decides.
        if (!isNotFound(fallbackError)) throw fallbackError;
        log(what, `${volumeUri} is not attached to cluster ${kaasId}: already detached`);
        accepted = false;
      }
    }
    await this.watch(
      api,
      declared,
      {
        what: `${what} (${id})`,
        until: deadlineOf(declared, "delete", DEFAULT_TIMEOUTS),
        target: "detached",
        afterMutation: accepted,
      },
      detachedFrom(volumeUri),
    );
  }
}
