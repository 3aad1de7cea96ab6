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
import type { RunContext } from "../common/kindProvider";
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
  duplicateReason,
  holderOf,
  leftToHolderLine,
  sameClaimTarget,
  standbyDeleteLine,
  standbyDroppedLine,
  type AttachmentClaims,
  type ClaimTarget,
  type HolderRelation,
} from "./claims";
import { decideAttach, unconfirmedMessage, type AttachAnswer, type AttachSubject } from "./attachDecision";
import { diffVolumeAttachment } from "./diff";
import { isNodeGone } from "./nodeGone";
import { verificationOf, viewAttachment, type AttachmentView, type Verification } from "./observe";
import { attachmentId, type CheckedVolumeAttachmentInputs } from "./types";
import { volumeAction } from "../../schemas/volumeAction";
import { carriesId, numberOrNull } from "../common/typed";

const MINUTE = 60_000;
/**
 * How long a create that finds its volume attached waits, after the last check of a VolumeAttachment, for the
 * check of a resource of the stack that holds it (`AttachmentClaims.holderWithin`), at most
 * `HOLDER_CHECK_GRACE_MS`, before it takes what it found for another stack's attachment.
 */
export const CHECK_QUIET_MS = 300;
export const HOLDER_CHECK_GRACE_MS = 3_000;
/**
 * On the plugin path the state names the resource of the stack that holds what the create found attached
 * (`RunContext.trackerOf`): the create then waits for that resource's check longer, `STATE_HOLDER_QUIET_MS`
 * after the last check of a VolumeAttachment, at most `STATE_HOLDER_GRACE_MS`. A resource of the program is
 * checked as soon as the program registers it, which a loaded machine may delay by seconds; one the program
 * no longer declares is never checked, and its create only waits that long before it goes on.
 */
export const STATE_HOLDER_QUIET_MS = 2_000;
export const STATE_HOLDER_GRACE_MS = 30_000;
const DEFAULT_TIMEOUTS = { create: 15 * MINUTE, update: 15 * MINUTE, delete: 15 * MINUTE };
const { subjectOf, inputsOf, located } = providerFrame<CheckedVolumeAttachmentInputs>("VolumeAttachment", [
  "sizeGb",
  "verification",
]);

/** The resource a create is for, as the claims know it: its attachment and its scope. */
interface Claim {
  target: ClaimTarget;
  scope: string;
}

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
 * Of the resources of a stack with the same volume and cluster, one holds the attachment (`claims.ts`): the
 * first the program declares on the dynamic path; the create of any other fails naming it, before any request
 * that changes anything, and records nothing. The delete of a holder whose attachment another resource of the
 * run holds detaches nothing.
 */
export class VolumeAttachmentProvider {
  constructor(
    private readonly api: () => VendorContainerClient = client,
    private readonly claims: AttachmentClaims = PROCESS_CLAIMS,
    private readonly checkQuietMs: number = CHECK_QUIET_MS,
  ) {}

  /**
   * Validates the inputs and notes in the process's claims what this run makes of the resource: it holds the
   * attachment already (its state holds it, for the same volume and cluster), or it holds nothing (its inputs
   * are refused, or the program declares another one of its volume before it: its create is refused, and the
   * preview prints why). For a resource that holds its attachment in the state, `declaredBefore` is dropped:
   * it keeps the attachment, and the create of the one declared before it is refused instead (`create`).
   */
  async check(olds: Inputs, news: Inputs): Promise<CheckResult<CheckedVolumeAttachmentInputs>> {
    this.claims.checking();
    const context = checkContext();
    const result = checkVolumeAttachment(olds, news, context);
    const scope = claimScopeOf(result.inputs);
    const target = claimTargetOf(result.inputs);
    // Unknown in a preview (a cluster still to be created): create decides.
    if (scope === undefined || target === undefined) return result;
    const before = claimTargetOf(olds, context.defaultProjectId);
    // A state an earlier version wrote standing by (`holderOf(olds)`) holds nothing: it is replaced (`diff`).
    if (before !== undefined && sameClaimTarget(before, target) && holderOf(olds) === null) {
      if (result.failures.length === 0) this.claims.hold(target, scope);
      const { declaredBefore: _dropped, ...inputs } = result.inputs;
      return { ...result, inputs };
    }
    const holder = holderOf(result.inputs);
    if (result.failures.length > 0 || holder) this.claims.miss(target, scope);
    if (result.failures.length === 0 && holder)
      log(subjectOf(result.inputs), this.duplicateText(result.inputs, holder.scope, "declaredBefore"));
    return result;
  }

  /** Why the create of `inputs` is refused, after its volume: `claims.ts` `duplicateReason`. */
  private duplicateText(inputs: Inputs, holderScope: string, relation: HolderRelation): string {
    const id = attachmentId(String(inputs.kaasId), String(inputs.volumeUri));
    return `${String(inputs.volumeUri)} ${duplicateReason(claimScopeOf(inputs) ?? "", holderScope, id, relation)}`;
  }

  /** The plain error (no id: the engine records nothing) that refuses the create of `inputs`. */
  private duplicate(inputs: Inputs, holderScope: string, relation: HolderRelation): Error {
    return new Error(`${subjectOf(inputs)}: ${this.duplicateText(inputs, holderScope, relation)}`);
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
   * Of the resources of a stack with one volume and cluster (`claims.ts`), the create of one declared after
   * another is refused at once; any other create first waits for those of its volume under way that started
   * before it, and is refused if another resource of the stack holds the attachment then, or once the cluster
   * is read, or when what it finds attached would be taken over. Each refusal is a plain error sent before any
   * request that changes anything (at most an attach the service refuses as already attached, which changes
   * nothing), so the engine records nothing of the resource.
   *
   * A failure carries the id (a partial failure, recorded in the state) only once the attachment is this
   * resource's: its attach was accepted, or it took one over. A refusal "already attached" that the cluster
   * then does not show on the declared node is a plain error: nothing of it is recorded, and a later removal
   * from the program cannot detach an attachment that is not this resource's.
   */
  async create(
    inputs: CheckedVolumeAttachmentInputs,
    run?: RunContext,
  ): Promise<{ id: string; outs: Inputs }> {
    const scope = claimScopeOf(inputs);
    const target = claimTargetOf(inputs);
    if (scope === undefined || target === undefined) return this.attach(inputs);
    const declaredFirst = holderOf(inputs);
    if (declaredFirst) {
      this.claims.miss(target, scope);
      throw this.duplicate(inputs, declaredFirst.scope, "declaredBefore");
    }
    const until = deadlineOf(inputs, "create", DEFAULT_TIMEOUTS);
    const held = await this.claims.startCreate(target, scope, until);
    if (held) {
      this.claims.miss(target, scope);
      throw this.duplicate(inputs, held.scope, "ofStack");
    }
    const claim: Claim = { target, scope };
    try {
      const made = await this.attach(inputs, claim, run);
      this.claims.hold(target, scope);
      return made;
    } catch (error) {
      // A partial failure is recorded with the id: the state holds the attachment.
      if (isPartialFailure(error)) this.claims.hold(target, scope);
      else this.claims.miss(target, scope);
      throw error;
    }
  }

  /**
   * Throws the refusal of `create` when another resource of the stack holds `claim`'s attachment: the one in
   * the state whose check came after this create started, or one whose attach went through first.
   */
  private refuseHeld(inputs: CheckedVolumeAttachmentInputs, claim: Claim | undefined): void {
    const other = claim && this.claims.otherHolder(claim.target, claim.scope);
    if (other) throw this.duplicate(inputs, other.scope, "ofStack");
  }

  /**
   * The scope of another resource of the stack that holds what the create of `claim` found attached: one of
   * this run (`claims`), or, while the check of one that holds it in the state may still be on its way, the
   * one whose check comes within the wait (`holderWithin`). On the plugin path the state tells whether one
   * holds it (`run.trackerOf`): none, and the create waits for nothing; one, and it waits for that one's
   * check longer (`STATE_HOLDER_QUIET_MS`). Where the state cannot be read (or on the dynamic path, whose
   * order is `declaredBefore`), the short wait.
   */
  private async stackHolder(
    claim: Claim,
    id: string,
    until: number,
    run?: RunContext,
  ): Promise<string | undefined> {
    const known = this.claims.otherHolder(claim.target, claim.scope);
    if (known) return known.scope;
    const tracker = await run?.trackerOf?.(id);
    if (tracker === null || tracker?.scope === claim.scope) return undefined;
    const [quietMs, graceMs] =
      tracker === undefined
        ? [this.checkQuietMs, HOLDER_CHECK_GRACE_MS]
        : [STATE_HOLDER_QUIET_MS, STATE_HOLDER_GRACE_MS];
    const grace = Math.min(until, Date.now() + graceMs);
    return (await this.claims.holderWithin(claim.target, claim.scope, quietMs, grace))?.scope;
  }

  /** `create` of a resource that may hold the attachment: see `create`. */
  private async attach(
    inputs: CheckedVolumeAttachmentInputs,
    claim?: Claim,
    run?: RunContext,
  ): Promise<{ id: string; outs: Inputs }> {
    const api = this.api();
    const { projectId, kaasId, volumeUri, nodeId } = inputs;
    const what = subjectOf(inputs);
    const until = deadlineOf(inputs, "create", DEFAULT_TIMEOUTS);
    const id = attachmentId(kaasId, volumeUri);
    const cluster = await api.find("getKaas", { projectId, id: kaasId });
    if (!cluster) throw new Error(`${what}: cluster ${kaasId} does not exist in project ${projectId}`);
    this.refuseHeld(inputs, claim);
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
        // Not attached before, so no other resource holds it: a create of its volume waiting for this one
        // is refused from now on.
        if (claim) this.claims.hold(claim.target, claim.scope);
      } catch (error) {
        refusal = error;
        answer = isAlreadyAttached(error)
          ? { kind: "alreadyAttached", afterLostAnswer: error.afterLostAnswer, text: errorText(error) }
          : { kind: "otherRefusal" };
      }
      outcome = decideAttach(subject, view, answer);
      if (outcome.kind === "fail") throw await this.explain(api, inputs, refusal);
    }
    // What it finds attached may be another resource's of the stack: one whose attach went through meanwhile,
    // or one in the state whose check the engine has not made yet.
    if (outcome.kind !== "attached" && claim) {
      const holder = await this.stackHolder(claim, id, until, run);
      if (holder) throw this.duplicate(inputs, holder, "ofStack");
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
      if (outcome.kind !== "attached") this.refuseHeld(inputs, claim);
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
   * Updates in place `timeouts`: nothing to send; waits for a pending attach (partial failure resume). A state
   * an earlier version wrote standing by is replaced (`diff`), never updated: should the engine update it all
   * the same, the update is refused with the create's refusal, and the state stays as it was.
   */
  async update(id: string, olds: Inputs, news: CheckedVolumeAttachmentInputs): Promise<{ outs: Inputs }> {
    const standingBy = holderOf(olds);
    if (standingBy) throw this.duplicate(news, standingBy.scope, "declaredBefore");
    const scope = claimScopeOf(news);
    const target = claimTargetOf(news);
    const resumed = await this.resume(id, olds, news);
    if (target && scope !== undefined) this.claims.hold(target, scope);
    return resumed;
  }

  /** `update` of a resource that holds its attachment: see `update`. */
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
   * Gone when the cluster is gone, or when it shows attachments and not this one; moved when `attachedVolumes`
   * shows it on another node. Where the cluster shows no attachments, kept as declared (`verification: none`):
   * refresh never drops what it cannot see. A resource an earlier version recorded standing by (`claims.ts`)
   * holds nothing, so it is dropped.
   */
  async read(id: string, props: Inputs): Promise<{ id: string; props: Inputs; inputs?: Inputs }> {
    const { readOnly, state } = readRequest(props);
    if (readOnly) {
      // A `get` stores outputs only.
      const { props: outputs } = await this.readOnly(id, state);
      return { id, props: outputs };
    }
    const standingBy = holderOf(state);
    if (standingBy) {
      log(subjectOf(inputsOf(state)), standbyDroppedLine(String(state.volumeUri), standingBy.scope));
      return { id: "", props: {}, inputs: {} };
    }
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
   * the cluster is settled. Nothing is sent for a resource an earlier version recorded standing by, nor when
   * another resource of the stack holds the attachment in this run (`claims.ts`).
   */
  async delete(id: string, props: Inputs): Promise<void> {
    const declared = inputsOf(props);
    const volumeUri = declared.volumeUri;
    const what = subjectOf(declared);
    const standingBy = holderOf(props);
    // Recorded standing by by an earlier version, it holds nothing (`claims.ts`): the attachment is its holder's.
    if (standingBy) {
      log(what, standbyDeleteLine(volumeUri, standingBy.scope));
      return;
    }
    const scope = claimScopeOf(declared);
    const target = claimTargetOf(declared, defaultProjectId());
    const other = target && this.claims.otherHolder(target, scope ?? "");
    // Another resource of the stack holds this attachment in this run: one that took it over when this one
    // left the program (the engine deletes removed resources last), a resource renamed without an alias whose
    // new name took it over, or a state written before duplicates were kept apart. Detaching would take it
    // away from that resource.
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
