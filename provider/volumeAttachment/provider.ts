/** The VolumeAttachment provider. Loaded lazily in the provider process; never serialized. */
import type { AttachedVolumeResponse, KaasResponse } from "../../schemas";
import type { VendorContainerClient } from "../../rest/client";
import { isNotFound, isVendorApiError } from "../../rest/errors";
import { waitFor, type WaitVerdict } from "../../rest/waiter";
import type { CheckFailure, Inputs } from "../common/check";
import { client, defaultProjectId, log, progress } from "../common/context";
import { partialFailure } from "../common/failure";
import { jsonSafe } from "../common/outputs";
import {
  deadlineOf,
  errorText,
  inputsOf as splitInputs,
  subjectOf as subject,
  refreshedInputs,
} from "../common/resource";
import { attachmentId, checkVolumeAttachment } from "./check";
import { diffVolumeAttachment } from "./diff";

const MINUTE = 60_000;
const DEFAULT_TIMEOUTS = { create: 15 * MINUTE, update: 15 * MINUTE, delete: 15 * MINUTE };
const subjectOf = (inputs: Inputs) => subject("VolumeAttachment", inputs);
const inputsOf = (state: Inputs) => splitInputs(state, ["sizeGb"]);

/** Where the cluster says the volume is attached, if anywhere. */
export function attachmentOf(
  cluster: KaasResponse | undefined,
  volumeUri: string,
): AttachedVolumeResponse | undefined {
  return (cluster?.properties.attachedVolumes ?? []).find((v) => v.uri === volumeUri);
}

/** Verdict for "attached to `nodeId`": done there, failed when it went to another node, else pending. */
function attachedTo(nodeId: string) {
  return (a: AttachedVolumeResponse | undefined): WaitVerdict =>
    a === undefined
      ? { kind: "pending", state: "attaching" }
      : a.nodeId === nodeId
        ? { kind: "done" }
        : { kind: "failed", reason: `attached to node ${a.nodeId ?? "(gone)"} instead of ${nodeId}` };
}

export class VolumeAttachmentProvider {
  constructor(private readonly api: () => VendorContainerClient = client) {}

  async check(olds: Inputs, news: Inputs): Promise<{ inputs: Inputs; failures: CheckFailure[] }> {
    return checkVolumeAttachment(olds, news, { defaultProjectId: defaultProjectId() });
  }

  async diff(_id: string, olds: Inputs, news: Inputs) {
    const { changes, replaces, deleteBeforeReplace } = diffVolumeAttachment(olds, news);
    return { changes, replaces, deleteBeforeReplace };
  }

  /** Polls the cluster until `judge` is satisfied with the volume's attachment. */
  private watch(
    api: VendorContainerClient,
    inputs: Inputs,
    what: string,
    until: number,
    target: string,
    judge: (a: AttachedVolumeResponse | undefined) => WaitVerdict,
  ) {
    const projectId = inputs.projectId as string;
    const kaasId = inputs.kaasId as string;
    return waitFor(
      () => api.findKaas(projectId, kaasId),
      (cluster) => judge(attachmentOf(cluster, inputs.volumeUri as string)),
      {
        what,
        target,
        method: "GET",
        path: `/kaas/${kaasId}`,
        deadline: until,
        intervalMs: api.pollIntervalMs,
        onProgress: progress,
      },
    );
  }

  /** Rewrites a refusal caused by the cluster's storage limit so that it names the limit. */
  private async explain(api: VendorContainerClient, inputs: Inputs, error: unknown): Promise<unknown> {
    if (
      !isVendorApiError(error) ||
      error.status !== 400 ||
      !/maxCumulativeVolumeSize|storage limit/i.test(error.message)
    )
      return error;
    const cluster = await api
      .findKaas(inputs.projectId as string, inputs.kaasId as string)
      .catch(() => undefined);
    const limit = cluster?.properties.storage?.maxCumulativeVolumeSize;
    return new Error(
      `${subjectOf(inputs)}: attaching ${inputs.volumeUri} would exceed the cluster's storage limit ` +
        `maxCumulativeVolumeSize${limit !== undefined && limit !== null ? ` (${limit} GB)` : ""}: ${error.message}`,
    );
  }

  async create(inputs: Inputs): Promise<{ id: string; outs: Inputs }> {
    const api = this.api();
    const projectId = inputs.projectId as string;
    const kaasId = inputs.kaasId as string;
    const volumeUri = inputs.volumeUri as string;
    const nodeId = inputs.nodeId as string;
    const what = subjectOf(inputs);
    const until = deadlineOf(inputs, "create", DEFAULT_TIMEOUTS);
    const id = attachmentId(kaasId, volumeUri);
    const cluster = await api.findKaas(projectId, kaasId);
    if (!cluster) throw new Error(`${what}: cluster ${kaasId} does not exist in project ${projectId}`);
    const existing = attachmentOf(cluster, volumeUri);
    if (existing && existing.nodeId !== nodeId) {
      throw new Error(
        `${what}: ${volumeUri} is already attached to node ${existing.nodeId ?? "(gone)"} of cluster ${kaasId}; detach it first`,
      );
    }
    if (!existing && inputs.adoptId)
      throw new Error(`${what}: adoptId ${inputs.adoptId}: the volume is not attached`);
    if (existing) {
      log(what, `taking over the existing attachment of ${volumeUri} to node ${nodeId}`);
    } else {
      try {
        await api.attachVolume(projectId, kaasId, inputs.nodePoolName as string, nodeId, volumeUri);
        log(what, `attaching ${volumeUri} to node ${nodeId}`);
      } catch (error) {
        // A retried attach whose first try went through answers "already attached" (the attachment may
        // still be on its way to the cluster's list): the wait below decides.
        if (!isVendorApiError(error) || error.status !== 400 || !/already attached/i.test(error.message)) {
          throw await this.explain(api, inputs, error);
        }
      }
    }
    try {
      const live = await this.watch(api, inputs, `${what} (${id})`, until, "attached", attachedTo(nodeId));
      return {
        id,
        outs: jsonSafe({ ...inputsOf(inputs), sizeGb: attachmentOf(live, volumeUri)?.sizeGb ?? null }),
      };
    } catch (error) {
      throw partialFailure(
        id,
        jsonSafe({ ...inputsOf(inputs), sizeGb: null }),
        inputs,
        `${what} (${id}) attach did not complete: ${errorText(error)}`,
      );
    }
  }

  /** Only `timeouts` updates in place; nothing to send. Waits for a pending attach (partial failure resume). */
  async update(id: string, _olds: Inputs, news: Inputs): Promise<{ outs: Inputs }> {
    const api = this.api();
    const nodeId = news.nodeId as string;
    const live = await this.watch(
      api,
      news,
      `${subjectOf(news)} (${id})`,
      deadlineOf(news, "update", DEFAULT_TIMEOUTS),
      "attached",
      attachedTo(nodeId),
    );
    return {
      outs: jsonSafe({
        ...inputsOf(news),
        sizeGb: attachmentOf(live, news.volumeUri as string)?.sizeGb ?? null,
      }),
    };
  }

  /** Gone when the cluster no longer lists the volume; moved when it lists it on another node. */
  async read(id: string, props: Inputs): Promise<{ id: string; props: Inputs; inputs?: Inputs }> {
    const api = this.api();
    const declared = inputsOf(props);
    const cluster = await api.findKaas(
      (declared.projectId as string) ?? defaultProjectId(),
      declared.kaasId as string,
    );
    const attachment = attachmentOf(cluster, declared.volumeUri as string);
    if (!attachment) {
      log(subjectOf(declared), `${declared.volumeUri} is no longer attached`);
      return { id: "", props: {}, inputs: {} };
    }
    const inputs = jsonSafe({
      ...declared,
      nodeId: attachment.nodeId ?? declared.nodeId,
      nodePoolName: attachment.nodePoolName ?? declared.nodePoolName,
    });
    return {
      id,
      props: { ...inputs, sizeGb: attachment.sizeGb ?? null },
      inputs: refreshedInputs(declared, inputs),
    };
  }

  /**
   * Detaches at node level; when the node no longer exists (pool scaled down or replaced) falls back to the
   * cluster-level detach; an already detached volume, or a cluster already gone, is a success.
   */
  async delete(id: string, props: Inputs): Promise<void> {
    const api = this.api();
    const projectId = props.projectId as string;
    const kaasId = props.kaasId as string;
    const volumeUri = props.volumeUri as string;
    const what = subjectOf(props);
    const cluster = await api.findKaas(projectId, kaasId);
    if (!attachmentOf(cluster, volumeUri)) return;
    try {
      await api.detachVolumeFromNode(
        projectId,
        kaasId,
        props.nodePoolName as string,
        props.nodeId as string,
        volumeUri,
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
      log(what, `node ${props.nodeId} no longer holds ${volumeUri}; detaching at cluster level`);
      try {
        await api.detachVolumeFromCluster(projectId, kaasId, volumeUri);
      } catch (fallbackError) {
        // Not attached anywhere any more, or a detach already under way (a retried request): the wait decides.
        if (!isNotFound(fallbackError)) throw fallbackError;
      }
    }
    await this.watch(
      api,
      props,
      `${what} (${id})`,
      deadlineOf(props, "delete", DEFAULT_TIMEOUTS),
      "detached",
      (a) => (a ? { kind: "pending", state: "detaching" } : { kind: "done" }),
    );
  }
}
