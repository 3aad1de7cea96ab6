/**
 * KaaS handlers (spec §4.1): create, update, kubeconfig download, node pool update, volume attach and detach at
 * node level and detach at cluster level, and what a cluster's delete does besides the delete every kind
 * shares (`resources.ts`, with the list and the get).
 */
import type { KaasInsert, NodePoolRequest } from "../schemas/kaas";
import type { VolumeAction } from "../schemas/volume";
import { compareVersions } from "../provider/kaas/version";
import { deriveSecret } from "./auth";
import { ApiProblem, validationProblem } from "./problems";
import { kaasUri, renderKaas } from "./render";
import type { EndpointReply, EndpointRequest } from "./routes";
import { attachedSizeGb, checkKaasInsert, checkKaasUpdate, checkPoolValues, limitsFor } from "./rules";
import { assertMutable, booleanQuery, newRecordBase, rejectIf, type Reply, type Service } from "./service";
import type { BaseRecord, KaasRecord, PoolRecord } from "./store";
import { beginUpdate } from "./transitions";

/** Sets the node count of `pool`: new nodes get new ids, the highest ids go first when it shrinks. */
export function resizePool(rec: KaasRecord, pool: PoolRecord, nodes: number): void {
  const seq = rec.props.nodeSeq;
  while (pool.nodeIds.length < nodes) {
    seq[pool.name] = (seq[pool.name] ?? 0) + 1;
    pool.nodeIds.push(`${rec.id}-${pool.name}-${seq[pool.name]}`);
  }
  if (pool.nodeIds.length > nodes) {
    const removed = pool.nodeIds.splice(nodes);
    orphanAttachments(rec, removed);
  }
}

/** Volumes on removed nodes stay attached to the cluster with `nodeId: null` (the node is gone). */
function orphanAttachments(rec: KaasRecord, nodeIds: string[]): void {
  for (const attachment of rec.props.attachments) {
    if (attachment.nodeId !== null && nodeIds.includes(attachment.nodeId)) attachment.nodeId = null;
  }
}

function newPool(rec: KaasRecord, request: NodePoolRequest, now: number): PoolRecord {
  const pool: PoolRecord = {
    name: request.name,
    instance: request.instance,
    dataCenter: request.dataCenter,
    autoscaling: request.autoscaling === true,
    minCount: request.minCount ?? null,
    maxCount: request.maxCount ?? null,
    createdAt: now,
    nodeIds: [],
  };
  resizePool(rec, pool, request.nodes);
  return pool;
}

/**
 * The stored cluster of a create's properties, on the fields every record shares (`newRecordBase`). Shared
 * by `POST P/kaas` and the control API's seeding (`seed.ts`), so seeded clusters are stored like created ones.
 */
export function newKaasRecord(base: BaseRecord, p: KaasInsert["properties"]): KaasRecord {
  const rec: KaasRecord = {
    kind: "kaas",
    ...base,
    deleteOnCascade: null,
    props: {
      preset: p.preset === true,
      vpcUri: p.vpc?.uri ?? null,
      subnetUri: p.subnet?.uri ?? null,
      nodeCidr: { address: p.nodeCidr.address, name: p.nodeCidr.name },
      podCidr: p.podCidr ?? null,
      securityGroupName: p.securityGroup?.name ?? null,
      kubernetesVersion: p.kubernetesVersion.value,
      upgradeTo: null,
      nodePools: [],
      nodeSeq: {},
      ha: p.ha === true,
      maxCumulativeVolumeSize: p.storage?.maxCumulativeVolumeSize ?? null,
      billingPeriod: p.billingPlan?.billingPeriod ?? null,
      // spec §2.4: the identity secret is accepted on input only; it is not even stored.
      clientId: p.identity?.clientId ?? null,
      autoscalerProfile: p.autoscalerProfile ?? null,
      authorizedIpRanges: p.apiServerAccessProfile?.authorizedIpRanges ?? null,
      enablePrivateCluster: p.apiServerAccessProfile?.enablePrivateCluster ?? false,
      attachments: [],
    },
  };
  rec.props.nodePools = p.nodePools.map((pool) => newPool(rec, pool, base.createdAt));
  return rec;
}

/** `POST P/kaas`: 201 with the cluster `InCreation`. */
export function createKaas(svc: Service, req: EndpointRequest<"createKaas">): EndpointReply<"createKaas"> {
  const { body } = req;
  rejectIf(checkKaasInsert(body, svc.config));
  const base = newRecordBase(svc, req, "kaas", body.metadata, svc.config.durations.kaasCreateMs);
  const rec = newKaasRecord(base, body.properties);
  const id = rec.id;
  svc.store.records.kaas.set(id, rec);
  svc.commit();
  return {
    status: 201,
    body: renderKaas(rec, svc.renderContext()),
    headers: { Location: kaasUri(svc.namespace, req.projectId, id) },
  };
}

/** `PUT P/kaas/{id}`: 200 without a body; the cluster reads `Updating` for a while. */
export function updateKaas(svc: Service, req: EndpointRequest<"updateKaas">): EndpointReply<"updateKaas"> {
  const { body } = req;
  const rec = svc.kaas(req.projectId, req.params.id);
  assertMutable(rec, "update");
  rejectIf(checkKaasUpdate(body, rec, svc.config));
  const now = svc.now();
  const p = body.properties;
  const props = rec.props;
  rec.name = body.metadata.name;
  if (body.metadata.tags !== undefined) rec.tags = body.metadata.tags ?? [];
  if (p.kubernetesVersion && compareVersions(p.kubernetesVersion.value, props.kubernetesVersion) > 0) {
    const { value, upgradeDate } = p.kubernetesVersion;
    const scheduledAt = upgradeDate ? Date.parse(upgradeDate) : NaN;
    // spec §2.3: "A version upgrade is handled as soon as the request is sent, unless `upgradeDate` is given."
    if (Number.isFinite(scheduledAt) && scheduledAt > now) {
      props.upgradeTo = { value, scheduledAt };
    } else {
      props.kubernetesVersion = value;
      props.upgradeTo = null;
    }
  }
  if (p.nodePools) {
    // The update carries the full desired list (api-notes "KaaS"): missing pools are removed.
    const desired = p.nodePools;
    const removed = props.nodePools.filter((pool) => !desired.some((d) => d.name === pool.name));
    for (const pool of removed) orphanAttachments(rec, pool.nodeIds);
    props.nodePools = desired.map((d) => {
      const pool = props.nodePools.find((existing) => existing.name === d.name);
      if (!pool) return newPool(rec, d, now);
      pool.instance = d.instance;
      pool.dataCenter = d.dataCenter;
      pool.autoscaling = d.autoscaling === true;
      pool.minCount = d.minCount ?? null;
      pool.maxCount = d.maxCount ?? null;
      resizePool(rec, pool, d.nodes);
      return pool;
    });
  }
  if (p.ha !== undefined) props.ha = p.ha;
  if (p.storage) props.maxCumulativeVolumeSize = p.storage.maxCumulativeVolumeSize;
  if (p.billingPlan) props.billingPeriod = p.billingPlan.billingPeriod;
  if (p.apiServerAccessProfile) {
    props.authorizedIpRanges = p.apiServerAccessProfile.authorizedIpRanges ?? null;
    props.enablePrivateCluster = p.apiServerAccessProfile.enablePrivateCluster ?? props.enablePrivateCluster;
  }
  beginUpdate(rec, now, svc.config.durations.kaasUpdateMs);
  svc.commit();
  return { status: 200 };
}

/**
 * What `DELETE P/kaas/{id}` does besides the delete every kind shares (`resources.ts`), from its query:
 * `deleteOnCascade` is recorded for inspection, and the cluster's backups go with it, deleted alongside.
 */
export function kaasDeleteEffects(
  query: URLSearchParams,
): (svc: Service, rec: KaasRecord, now: number) => void {
  const cascade = booleanQuery(query, "deleteOnCascade");
  return (svc, rec, now) => {
    rec.deleteOnCascade = cascade;
    for (const backup of svc.store.records.backup.values()) {
      if (backup.kaasId === rec.id && backup.life.state !== "Deleted") {
        backup.life = { ...rec.life };
        backup.updatedAt = now;
      }
    }
  };
}

/** The bearer token written into a cluster's kubeconfig: derived from the seed and the id, never logged. */
export function kubeconfigToken(seed: number, kaasId: string): string {
  return `kube_${deriveSecret(seed, `kubeconfig:${kaasId}`)}`;
}

/** The kubeconfig YAML of a cluster. */
export function kubeconfigYaml(rec: KaasRecord, seed: number, managementIp: string | null): string {
  const ca = Buffer.from(
    `-----BEGIN CERTIFICATE-----\nEMULATOR-CA-${rec.id}\n-----END CERTIFICATE-----\n`,
  ).toString("base64");
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `  - name: ${rec.name}`,
    "    cluster:",
    `      server: https://${managementIp ?? `${rec.id}.kaas.emulator.invalid`}:6443`,
    `      certificate-authority-data: ${ca}`,
    "contexts:",
    `  - name: ${rec.name}`,
    "    context:",
    `      cluster: ${rec.name}`,
    `      user: ${rec.name}-admin`,
    `current-context: ${rec.name}`,
    "users:",
    `  - name: ${rec.name}-admin`,
    "    user:",
    `      token: ${kubeconfigToken(seed, rec.id)}`,
    "",
  ].join("\n");
}

/** `GET P/kaas/{id}/download`: `{name, content}` with base64 kubeconfig content, only when `Active`. */
export function downloadKubeconfig(
  svc: Service,
  req: EndpointRequest<"downloadKubeconfig">,
): EndpointReply<"downloadKubeconfig"> {
  const rec = svc.kaas(req.projectId, req.params.id);
  if (rec.life.state !== "Active") {
    throw new ApiProblem("notActive", {
      title: `Resource is not active: ${rec.life.state}`,
      detail: `The configuration file of KaaS "${rec.id}" is available once the cluster is Active.`,
    });
  }
  const rendered = renderKaas(rec, svc.renderContext());
  const yaml = kubeconfigYaml(rec, svc.seed, rendered.properties.managementIp ?? null);
  return {
    status: 200,
    body: { name: `${rec.name}-kubeconfig.yaml`, content: Buffer.from(yaml, "utf8").toString("base64") },
  };
}

function poolOr404(rec: KaasRecord, name: string): PoolRecord {
  const pool = rec.props.nodePools.find((p) => p.name === name);
  if (!pool) {
    throw new ApiProblem("notFound", {
      title: "Node pool not found",
      detail: `KaaS "${rec.id}" has no node pool "${name}".`,
    });
  }
  return pool;
}

/** `PUT P/kaas/{id}/nodePools/{nodePoolName}`: partial update; 200 with the cluster. */
export function updateNodePool(
  svc: Service,
  req: EndpointRequest<"updateNodePool">,
): EndpointReply<"updateNodePool"> {
  const { body } = req;
  const rec = svc.kaas(req.projectId, req.params.id);
  const pool = poolOr404(rec, req.params.pool);
  assertMutable(rec, "update");
  const p = body.properties;
  // api-notes "KaaS": `minNode/maxNode` here are the pool's `minCount/maxCount`.
  const merged = {
    instance: p.instance ?? pool.instance,
    nodes: p.nodes ?? pool.nodeIds.length,
    autoscaling: p.autoscaling ?? pool.autoscaling,
    minCount: p.minNode ?? pool.minCount,
    maxCount: p.maxNode ?? pool.maxCount,
  };
  rejectIf(
    checkPoolValues(merged, limitsFor(svc.config, rec.props.ha), svc.config, {
      instance: "properties.instance",
      nodes: "properties.nodes",
      minCount: "properties.minNode",
      maxCount: "properties.maxNode",
    }),
  );
  pool.instance = merged.instance;
  pool.autoscaling = merged.autoscaling;
  pool.minCount = merged.minCount;
  pool.maxCount = merged.maxCount;
  resizePool(rec, pool, merged.nodes);
  beginUpdate(rec, svc.now(), svc.config.durations.kaasUpdateMs);
  svc.commit();
  return { status: 200, body: renderKaas(rec, svc.renderContext()) };
}

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
export function attachVolume(
  svc: Service,
  req: EndpointRequest<"attachVolume">,
): EndpointReply<"attachVolume"> {
  const { body } = req;
  const rec = svc.kaas(req.projectId, req.params.id);
  const pool = poolOr404(rec, req.params.pool);
  nodeOr404(rec, pool, req.params.node);
  assertMutable(rec, "action");
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
}

function startDetach(svc: Service, rec: KaasRecord, index: number): Reply<undefined> {
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
export function detachVolumeFromNode(
  svc: Service,
  req: EndpointRequest<"detachVolumeFromNode">,
): EndpointReply<"detachVolumeFromNode"> {
  const { body } = req;
  const rec = svc.kaas(req.projectId, req.params.id);
  if (svc.config.wire.goneNode === "400") {
    const gone = goneNodeProblem(rec, req.params.pool, req.params.node);
    if (gone) throw gone;
  }
  const pool = poolOr404(rec, req.params.pool);
  nodeOr404(rec, pool, req.params.node);
  assertMutable(rec, "action");
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
}

/** `POST P/kaas/{id}/detach`: detaches the volume wherever it is attached (also from a removed node). */
export function detachVolumeFromCluster(
  svc: Service,
  req: EndpointRequest<"detachVolumeFromCluster">,
): EndpointReply<"detachVolumeFromCluster"> {
  const { body } = req;
  const rec = svc.kaas(req.projectId, req.params.id);
  assertMutable(rec, "action");
  const uri = volumeUri(body);
  const index = rec.props.attachments.findIndex((a) => a.uri === uri && a.visibleUntil === null);
  if (index < 0) {
    throw new ApiProblem("notFound", {
      title: "Volume not attached",
      detail: `Volume "${uri}" is not attached to KaaS "${rec.id}".`,
    });
  }
  return startDetach(svc, rec, index);
}
