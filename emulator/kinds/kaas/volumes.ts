/**
 * Volume attachments (spec §4.1 "Volumes"): attach and detach at node level, detach at cluster level. The
 * package's `VolumeAttachment` kind has no records of its own here: an attachment lives in its cluster's
 * record (`KaasProps.attachments`) and is served by the cluster's endpoints.
 */
import type { VolumeAction } from "../../../schemas/volume";
import { ApiProblem, validationProblem } from "../../base/problems";
import type { ApiHandler } from "../../generic/endpoint";
import { attachedSizeGb } from "./rules";
import type { Reply } from "../../base/api";
import { findMutable } from "../../generic/resources";
import { type KindService } from "../../generic/service";

import type { KaasDurations } from "./durations";
import type { KaasRecord, KaasView, PoolRecord } from "./record";
import { KAAS_IN_PROJECT, findKaas, poolOr404 } from "./handlers";

function volumeUri(body: VolumeAction): string {
  const uri = body.volume.uri;
  if (uri === null) throw validationProblem([{ fieldName: "volume.uri", errorMessage: "is required" }]);
  return uri;
}

function nodeOr404(rec: KaasRecord, pool: PoolRecord, nodeId: string): void {
  if (!pool.nodeIds.includes(nodeId)) {
    throw new ApiProblem("notFound", {
      title: "Node not found",
      detail: `Node pool "${pool.name}" of KaaS "${rec.id}" has no node "${nodeId}".`,
    });
  }
}

/**
 * `POST .../nodePools/{pool}/nodes/{node}/attach`: 202; the volume shows in `attachedVolumes` after the attach
 * duration. The sum of attached sizes must stay within `storage.maxCumulativeVolumeSize` (spec §2.2, §8).
 */
export const attachVolume: ApiHandler<"attachVolume", KaasView, KaasDurations> = (svc, req) => {
  const { body } = req;
  const rec = findKaas(svc, req.projectId, req.params.id);
  const pool = poolOr404(rec, req.params.pool);
  nodeOr404(rec, pool, req.params.node);
  svc.assertMutable(rec, "action");
  const uri = volumeUri(body);
  const existing = rec.props.attachments.find((a) => a.uri === uri && a.visibleUntil === null);
  if (existing) {
    throw validationProblem([
      {
        fieldName: "volume.uri",
        errorMessage: `is already attached to KaaS "${rec.id}"${existing.nodeId ? ` (node "${existing.nodeId}")` : ""}`,
      },
    ]);
  }
  const size = svc.config.volumeSizesGb[uri] ?? svc.config.defaultVolumeSizeGb;
  const limit = rec.props.maxCumulativeVolumeSize;
  const used = attachedSizeGb(rec);
  if (limit !== null && used + size > limit) {
    throw validationProblem([
      {
        fieldName: "volume.uri",
        errorMessage: `attaching ${size} GB would bring the cluster's volumes to ${used + size} GB, beyond storage.maxCumulativeVolumeSize (${limit} GB)`,
      },
    ]);
  }
  const now = svc.now();
  rec.props.attachments.push({
    uri,
    nodePoolName: pool.name,
    nodeId: req.params.node,
    sizeGb: size,
    visibleFrom: now + svc.config.durations.attachMs,
    visibleUntil: null,
  });
  rec.updatedAt = now;
  rec.version += 1;
  svc.commit();
  return { status: 202 };
};

function startDetach(
  svc: KindService<KaasView, KaasDurations>,
  rec: KaasRecord,
  index: number,
): Reply<undefined> {
  const now = svc.now();
  rec.props.attachments[index].visibleUntil = now + svc.config.durations.detachMs;
  rec.updatedAt = now;
  rec.version += 1;
  svc.commit();
  return { status: 202 };
}

/**
 * The refusal of a node-level detach whose pool or node is gone, under the reading `goneNode=400`: a field
 * error on the path parameter (the published detach lists only 400 and 500; api-notes "Volumes").
 */
function goneNodeProblem(rec: KaasRecord, poolName: string, nodeId: string): ApiProblem | undefined {
  const pool = rec.props.nodePools.find((p) => p.name === poolName);
  if (!pool) {
    return validationProblem([
      { fieldName: "nodePoolId", errorMessage: `node pool "${poolName}" does not exist in KaaS "${rec.id}"` },
    ]);
  }
  if (pool.nodeIds.includes(nodeId)) return undefined;
  return validationProblem([
    {
      fieldName: "nodeId",
      errorMessage: `node "${nodeId}" does not exist in node pool "${poolName}" of KaaS "${rec.id}"`,
    },
  ]);
}

/**
 * `POST .../nodePools/{pool}/nodes/{node}/detach`: 202. A gone pool or node is answered as the reading
 * `goneNode` says (404, or 400 naming `nodeId`); a volume not on the node, 404.
 */
export const detachVolumeFromNode: ApiHandler<"detachVolumeFromNode", KaasView, KaasDurations> = (
  svc,
  req,
) => {
  const { body } = req;
  const rec = findKaas(svc, req.projectId, req.params.id);
  if (svc.config.wire.goneNode === "400") {
    const gone = goneNodeProblem(rec, req.params.pool, req.params.node);
    if (gone) throw gone;
  }
  const pool = poolOr404(rec, req.params.pool);
  nodeOr404(rec, pool, req.params.node);
  svc.assertMutable(rec, "action");
  const uri = volumeUri(body);
  const index = rec.props.attachments.findIndex(
    (a) => a.uri === uri && a.nodeId === req.params.node && a.visibleUntil === null,
  );
  if (index < 0) {
    throw new ApiProblem("notFound", {
      title: "Volume not attached",
      detail: `Volume "${uri}" is not attached to node "${req.params.node}".`,
    });
  }
  return startDetach(svc, rec, index);
};

/** `POST P/kaas/{id}/detach`: detaches the volume wherever it is attached (also from a removed node). */
export const detachVolumeFromCluster: ApiHandler<"detachVolumeFromCluster", KaasView, KaasDurations> = (
  svc,
  req,
) => {
  const { body } = req;
  const rec = findMutable(KAAS_IN_PROJECT, svc, req, "action");
  const uri = volumeUri(body);
  const index = rec.props.attachments.findIndex((a) => a.uri === uri && a.visibleUntil === null);
  if (index < 0) {
    throw new ApiProblem("notFound", {
      title: "Volume not attached",
      detail: `Volume "${uri}" is not attached to KaaS "${rec.id}".`,
    });
  }
  return startDetach(svc, rec, index);
};
