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
import { isNotFound, isVendorApiError } from "../../rest/errors";
import { classifyState, isBusyState, type StateNames, type WaitVerdict } from "../../rest/waiter";
import type { Inputs } from "../common/check";
import { checkContext, client, defaultProjectId, log, progress } from "../common/context";
import { partialFailure } from "../common/failure";
import { checkedInputsOf, type CheckResult } from "../common/arguments";
import { jsonSafe } from "../common/outputs";
import { deadlineOf, errorText, subjectOf as subject, refreshedInputs } from "../common/resource";
import { checkVolumeAttachment } from "./check";
import {
  PROCESS_CLAIMS,
  claimScopeOf,
  claimTargetOf,
  claimedError,
  claimedReason,
  leftToHolderLine,
  sameClaimTarget,
  type AttachmentClaims,
} from "./claims";
import { diffVolumeAttachment } from "./diff";
import { isNodeGone } from "./nodeGone";
import { verificationOf, viewAttachment, type AttachmentView, type Verification } from "./observe";
import { attachmentId, type CheckedVolumeAttachmentInputs } from "./types";
import { volumeAction } from "../../schemas/volumeAction";

const MINUTE = 60_000;
const DEFAULT_TIMEOUTS = { create: 15 * MINUTE, update: 15 * MINUTE, delete: 15 * MINUTE };
const subjectOf = (inputs: Inputs) => subject("VolumeAttachment", inputs);
/** The checked inputs of a state (or of the inputs `check` returned): without the computed outputs. */
const inputsOf = (state: Inputs) =>
  checkedInputsOf<CheckedVolumeAttachmentInputs>(state, ["sizeGb", "verification"]);

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
const isAlreadyAttached = (error: unknown): boolean =>
  isVendorApiError(error) && error.status === 400 && /already attached/i.test(error.message);

/** Whether a thrown value is a partial failure: the engine records the resource with its id. */
const isPartialFailure = (error: unknown): boolean =>
  typeof error === "object" && error !== null && typeof (error as { id?: unknown }).id === "string";

/**
 * The VolumeAttachment provider. The engine hands `create` and `update` the inputs `check` returned, so they
 * take the checked inputs; the state it hands back is read through `inputsOf`.
 *
 * One attachment belongs to one resource of the stack (`claims.ts`): `check` and `create` refuse a second
 * resource of the same volume and cluster, so nothing of it is sent or recorded, and `delete` of a resource
 * whose attachment another resource of the stack holds detaches nothing.
 */
export class VolumeAttachmentProvider {
  constructor(
    private readonly api: () => VendorContainerClient = client,
    private readonly claims: AttachmentClaims = PROCESS_CLAIMS,
  ) {}

  /**
   * Validates the inputs, then claims the attachment for this resource: refused, on `volumeUri`, when another
   * resource of the stack holds it. The state holds it for this resource when its old inputs name the same
   * volume and cluster; that prevails over another resource's create still to come (then refused at create).
   */
  async check(olds: Inputs, news: Inputs): Promise<CheckResult<CheckedVolumeAttachmentInputs>> {
    const context = checkContext();
    const result = checkVolumeAttachment(olds, news, context);
    const scope = claimScopeOf(result.inputs);
    const target = claimTargetOf(result.inputs);
    // Unknown in a preview (a cluster still to be created): `create` claims it.
    if (scope === undefined || target === undefined) return result;
    const before = claimTargetOf(olds, context.defaultProjectId);
    const held = before !== undefined && sameClaimTarget(before, target);
    // Only a resource that goes ahead claims; one with other problems only learns of a holder.
    const holder =
      result.failures.length === 0
        ? this.claims.claim(target, scope, held)
        : this.claims.conflict(target, scope, held);
    if (!holder) return result;
    return {
      ...result,
      failures: [...result.failures, { property: "volumeUri", reason: claimedReason(holder) }],
    };
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
      view.shows === "attachedVolumes"
        ? (view.attachment?.sizeGb ?? null)
        : ((previous.sizeGb as number | null | undefined) ?? null);
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
   * The refusal to take over an attachment whose node the service does not show without `adoptId`: it may be
   * this resource's own (an interrupted run, a retried request) or another node's.
   */
  private unknownNodeRefusal(inputs: CheckedVolumeAttachmentInputs, why: string): Error {
    const id = attachmentId(inputs.kaasId, inputs.volumeUri);
    return new Error(
      `${subjectOf(inputs)}: ${why}, and the service does not show to which node, so it cannot be checked to ` +
        `be node ${inputs.nodeId}. If this attachment is yours (an interrupted run, a retried request), set ` +
        `adoptId: "${id}" to take it over; otherwise detach it first.`,
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
   *
   * Another resource of the stack holding the attachment (`claims.ts`) is refused first, before any request.
   * A failure carries the id (a partial failure, recorded in the state) only once the attachment is this
   * resource's: its attach was accepted, or it took one over. A refusal "already attached" that the cluster
   * then does not show on the declared node is a plain error: nothing of it is recorded, and a later removal
   * from the program cannot detach an attachment that is not this resource's.
   */
  async create(inputs: CheckedVolumeAttachmentInputs): Promise<{ id: string; outs: Inputs }> {
    const scope = claimScopeOf(inputs);
    const target = claimTargetOf(inputs);
    if (scope === undefined || target === undefined) return this.attach(inputs);
    // Claimed again before any request: in a preview the cluster id may have been unknown at `check`.
    const holder = this.claims.claim(target, scope, false);
    if (holder) throw claimedError(subjectOf(inputs), inputs.volumeUri, holder);
    try {
      const made = await this.attach(inputs);
      this.claims.hold(target, scope);
      return made;
    } catch (error) {
      // A partial failure is recorded with the id: the state holds the attachment. Otherwise nothing of it is.
      if (isPartialFailure(error)) this.claims.hold(target, scope);
      else this.claims.release(target, scope);
      throw error;
    }
  }

  /** `create` once the attachment is claimed: see `create`. */
  private async attach(inputs: CheckedVolumeAttachmentInputs): Promise<{ id: string; outs: Inputs }> {
    const api = this.api();
    const { projectId, kaasId, volumeUri, nodeId } = inputs;
    const what = subjectOf(inputs);
    const until = deadlineOf(inputs, "create", DEFAULT_TIMEOUTS);
    const id = attachmentId(kaasId, volumeUri);
    const adopt = typeof inputs.adoptId === "string";
    const cluster = await api.find("getKaas", { projectId, id: kaasId });
    if (!cluster) throw new Error(`${what}: cluster ${kaasId} does not exist in project ${projectId}`);
    const view = viewAttachment(cluster, volumeUri);
    let send = true;
    let refusedAsAttached = false;
    if (view.shows === "attachedVolumes") {
      const existing = view.attachment;
      if (existing && existing.nodeId !== nodeId) {
        throw new Error(
          `${what}: ${volumeUri} is already attached to node ${existing.nodeId ?? "(gone)"} of cluster ${kaasId}; detach it first`,
        );
      }
      if (!existing && adopt)
        throw new Error(`${what}: adoptId ${inputs.adoptId}: the volume is not attached`);
      if (existing) {
        log(what, `taking over the existing attachment of ${volumeUri} to node ${nodeId}`);
        send = false;
      }
    } else if (view.shows === "linkedResources") {
      if (!view.linked && adopt)
        throw new Error(`${what}: adoptId ${inputs.adoptId}: the volume is not attached`);
      if (view.linked && !adopt)
        throw this.unknownNodeRefusal(inputs, `${volumeUri} is already attached to cluster ${kaasId}`);
      if (view.linked) {
        log(
          what,
          `taking over the existing attachment of ${volumeUri} to cluster ${kaasId}; the service does not ` +
            `show its node, so node ${nodeId} is taken as declared`,
        );
        send = false;
      }
    }
    if (send) {
      try {
        await api.call(
          "attachVolume",
          { projectId, id: kaasId, pool: inputs.nodePoolName, node: nodeId },
          volumeAction(volumeUri),
        );
        log(
          what,
          view.shows === "nothing" && adopt
            ? `adoptId: the service accepted a new attach of ${volumeUri} to node ${nodeId}, so it was not ` +
                `attached; it is attached now (the service does not show attachments: unverified)`
            : `attaching ${volumeUri} to node ${nodeId}`,
        );
      } catch (error) {
        if (!isAlreadyAttached(error)) throw await this.explain(api, inputs, error);
        if (view.shows === "nothing") {
          if (!adopt) {
            throw this.unknownNodeRefusal(
              inputs,
              `the service answers that ${volumeUri} is already attached to cluster ${kaasId} (${errorText(error)})`,
            );
          }
          log(
            what,
            `adoptId: the service answers that ${volumeUri} is already attached to cluster ${kaasId}; it does ` +
              `not show attachments, so the attachment is taken over unverified, on node ${nodeId} as declared`,
          );
        }
        // Where attachments show, a retried attach whose first try went through answers "already attached"
        // (the attachment may still be on its way to the cluster's responses): the wait below decides.
        refusedAsAttached = view.shows !== "nothing";
      }
    }
    try {
      const live = await this.watch(
        api,
        inputs,
        { what: `${what} (${id})`, until, target: "attached", afterMutation: send },
        attachedTo(volumeUri, nodeId),
      );
      return { id, outs: this.outputs(inputs, live.cluster) };
    } catch (error) {
      // Not shown on the declared node after the service refused the attach: the attachment is someone
      // else's (another node, another stack), so no id, and nothing of this resource lands in the state.
      if (refusedAsAttached) {
        throw new Error(
          `${what}: the service answers that ${volumeUri} is already attached to cluster ${kaasId}, and the ` +
            `cluster does not show it on node ${nodeId} (${errorText(error)}); detach it first`,
        );
      }
      throw partialFailure(
        id,
        jsonSafe({ ...inputsOf(inputs), sizeGb: null, verification: "none" }),
        inputs,
        `${what} (${id}) attach did not complete: ${errorText(error)}`,
      );
    }
  }

  /** Only `timeouts` updates in place; nothing to send. Waits for a pending attach (partial failure resume). */
  async update(id: string, olds: Inputs, news: CheckedVolumeAttachmentInputs): Promise<{ outs: Inputs }> {
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
   * refresh never drops what it cannot see.
   */
  async read(id: string, props: Inputs): Promise<{ id: string; props: Inputs; inputs?: Inputs }> {
    const { readOnly, ...state } = props;
    if (readOnly === true) return this.readOnly(id, state);
    const api = this.api();
    const declared = inputsOf(state);
    const what = subjectOf(declared);
    const volumeUri = declared.volumeUri;
    // A state without a project (written before `check` recorded the configured default) is looked up there.
    const cluster = await api.find("getKaas", {
      projectId: declared.projectId ?? defaultProjectId(),
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
  private async readOnly(id: string, lookup: Inputs): Promise<{ id: string; props: Inputs }> {
    const what = subjectOf(lookup);
    const separator = id.indexOf(":");
    if (separator <= 0)
      throw new Error(`${what}: get: "${id}" is not an attachment id; give "<kaasId>:<volumeUri>"`);
    const kaasId = id.slice(0, separator);
    const volumeUri = id.slice(separator + 1);
    const projectId =
      (typeof lookup.projectId === "string" ? lookup.projectId : undefined) ?? defaultProjectId() ?? "";
    const cluster = await this.api().find("getKaas", { projectId, id: kaasId });
    if (!cluster) throw new Error(`${what}: get: no cluster ${kaasId} in project ${projectId}`);
    const view = viewAttachment(cluster, volumeUri);
    if (view.shows === "nothing")
      throw new Error(
        `${what}: get: cannot read ${volumeUri} on cluster ${kaasId}: the service does not show volume attachments`,
      );
    if (!shownAttached(view))
      throw new Error(`${what}: get: ${volumeUri} is not attached to cluster ${kaasId}`);
    const attachment = view.shows === "attachedVolumes" ? view.attachment : undefined;
    const inputs = jsonSafe({
      ...lookup,
      projectId,
      kaasId,
      volumeUri,
      nodeId: attachment?.nodeId ?? undefined,
      nodePoolName: attachment?.nodePoolName ?? undefined,
    }) as CheckedVolumeAttachmentInputs;
    return { id, props: this.outputs(inputs, cluster, {}) };
  }

  /**
   * Detaches at node level; when the node no longer holds the volume (gone with a scaled-down or replaced
   * pool: a 404, or a 400 saying so, `nodeGone.ts`) falls back to the cluster-level detach; a 404 there means
   * already detached. Where the cluster
   * shows attachments and not this one, or the cluster is gone, there is nothing to send. Then waits until
   * the volume is no longer shown, or, where nothing shows attachments, until the cluster is settled.
   * Nothing is sent when another resource of the stack holds the attachment (`claims.ts`).
   */
  async delete(id: string, props: Inputs): Promise<void> {
    const declared = inputsOf(props);
    const volumeUri = declared.volumeUri;
    const what = subjectOf(declared);
    const scope = claimScopeOf(declared);
    const target = claimTargetOf(declared, defaultProjectId());
    const holder = target && this.claims.get(target);
    // Another resource of the stack holds this attachment (a state written before duplicates were refused,
    // or a resource renamed without an alias whose new name took it over): detaching would take it away.
    if (holder && holder.held && holder.scope !== scope) {
      log(what, leftToHolderLine(volumeUri, holder));
      return;
    }
    await this.detach(id, declared);
    // Detached: a create of this resource may follow (a replacement), which claims it again.
    if (target && scope !== undefined) this.claims.unhold(target, scope);
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
