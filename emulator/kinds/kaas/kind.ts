/**
 * The KaaS kind (spec §4.1): the stored cluster, its handlers (create, update, kubeconfig download, node pool
 * update, volume attach and detach at node level and detach at cluster level; the list, get and delete are those
 * every kind shares, `resources.ts`, with what a cluster's delete does besides), its lifecycle (scheduled
 * upgrades, detachments), its rendering and its seeding.
 */
import type { EndpointName } from "../../../schemas/endpoints";
import type { KaasInsert, KaasResponse, NodePoolRequest, AttachedVolumeResponse } from "../../../schemas/kaas";
import type { VolumeAction } from "../../../schemas/volume";
import { compareVersions } from "../../base/versions";
import { deriveSecret } from "../../base/auth";
import { iso } from "../../base/clock";
import { instanceSizeOf, type Durations } from "../../base/config";
import type { DeleteOptions, KindModule } from "../../generic/kind";
import { ApiProblem, validationProblem } from "../../base/problems";
import {
  billingPeriodResponse,
  metadataResponse,
  numberOf,
  phase,
  presetSubnetUri,
  providerPrefix,
  provisioned,
  statusResponse,
  type RenderContext,
} from "../../base/render";
import { deleteHandler, getHandler, listHandler } from "../../generic/resources";
import type { EndpointReply, EndpointRequest } from "../../transport/routes";
import {
  attachedSizeGb,
  checkKaasInsert,
  checkKaasUpdate,
  checkPoolValues,
  limitsFor,
} from "./rules";
import { cidrOverlaps, parseCidr } from "../../base/cidr";
import { newRecordBase, rejectIf, type Reply, type Service } from "../../generic/service";
import type { BaseRecord, LifeState } from "../../generic/store";
import { beginUpdate, settleLife } from "../../base/transitions";
import { withWireOverrides } from "../../base/wireOverrides";

// ---- The stored cluster ----

/** A node pool as stored. `nodeIds.length` is the node count. */
export interface PoolRecord {
  name: string;
  instance: string;
  dataCenter: string;
  autoscaling: boolean;
  minCount: number | null;
  maxCount: number | null;
  createdAt: number;
  nodeIds: string[];
}

/**
 * A volume attachment. It is visible in `attachedVolumes` from `visibleFrom` until `visibleUntil`; it counts
 * as attached (for the rules) while `visibleUntil` is null. `nodeId` becomes null when its node is removed.
 */
export interface AttachmentRecord {
  uri: string;
  nodePoolName: string | null;
  nodeId: string | null;
  sizeGb: number;
  visibleFrom: number;
  visibleUntil: number | null;
}

/** Stored properties of a cluster. */
export interface KaasProps {
  preset: boolean;
  vpcUri: string | null;
  subnetUri: string | null;
  nodeCidr: { address: string; name: string };
  podCidr: string | null;
  securityGroupName: string | null;
  /** The live version. */
  kubernetesVersion: string;
  /** A scheduled upgrade (spec §2.3 `upgradeDate`). */
  upgradeTo: { value: string; scheduledAt: number } | null;
  nodePools: PoolRecord[];
  /** Last node number used per pool name, so node ids are never reused. */
  nodeSeq: Record<string, number>;
  ha: boolean;
  maxCumulativeVolumeSize: number | null;
  /** Billing period as sent (`Hour`, `Month`, `Year`). */
  billingPeriod: string | null;
  clientId: string | null;
  autoscalerProfile: unknown;
  authorizedIpRanges: string[] | null;
  enablePrivateCluster: boolean;
  attachments: AttachmentRecord[];
}

/** A cluster. */
export interface KaasRecord extends BaseRecord {
  kind: "kaas";
  props: KaasProps;
  /** The `deleteOnCascade` flag of the DELETE that removed it, for inspection. */
  deleteOnCascade: boolean | null;
}

/** A cluster of the project; `Deleted` tombstones only with `allowDeleted`. 404 otherwise. */
export function findKaas(svc: Service, projectId: string, id: string, allowDeleted = false): KaasRecord {
  return svc.lookup("kaas", projectId, id, allowDeleted);
}

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

// ---- Handlers ----

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
  const rec = findKaas(svc, req.projectId, req.params.id);
  svc.assertMutable(rec, "update");
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
 * What `DELETE P/kaas/{id}` does besides the delete every kind shares (`resources.ts`), from its query options:
 * `deleteOnCascade` is recorded for inspection, and the cluster's backups go with it, deleted alongside.
 */
export function kaasDeleteEffects(
  options: DeleteOptions,
): (svc: Service, rec: KaasRecord, now: number) => void {
  const cascade = options.deleteOnCascade ?? false;
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
  const rec = findKaas(svc, req.projectId, req.params.id);
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
  const rec = findKaas(svc, req.projectId, req.params.id);
  const pool = poolOr404(rec, req.params.pool);
  svc.assertMutable(rec, "update");
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
}

/** `POST P/kaas/{id}/detach`: detaches the volume wherever it is attached (also from a removed node). */
export function detachVolumeFromCluster(
  svc: Service,
  req: EndpointRequest<"detachVolumeFromCluster">,
): EndpointReply<"detachVolumeFromCluster"> {
  const { body } = req;
  const rec = findKaas(svc, req.projectId, req.params.id);
  svc.assertMutable(rec, "action");
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

// ---- Lifecycle ----

/**
 * Settles a cluster: its lifecycle, a scheduled Kubernetes upgrade whose date has passed (spec §2.3: "With
 * `upgradeDate`, the upgrade is scheduled for that date") and volume detachments that have completed.
 */
function settleKaas(rec: KaasRecord, now: number, durations: Durations): LifeState | "Gone" {
  const state = settleLife(rec, now, durations.tombstoneMs);
  if (state === "Gone") return state;
  const upgrade = rec.props.upgradeTo;
  if (upgrade && now >= upgrade.scheduledAt && state !== "Deleting" && state !== "Deleted") {
    rec.props.kubernetesVersion = upgrade.value;
    rec.props.upgradeTo = null;
    // The upgrade job runs like an update: the cluster reads Updating for the update duration.
    const end = upgrade.scheduledAt + durations.kaasUpdateMs;
    if (state === "Active" && now < end) {
      rec.life = {
        state: "Updating",
        since: upgrade.scheduledAt,
        until: end,
        next: "Active",
        failureReason: null,
      };
    }
  }
  rec.props.attachments = rec.props.attachments.filter(
    (a) => a.visibleUntil === null || a.visibleUntil > now,
  );
  return rec.life.state;
}

// ---- Rendering ----

/**
 * What the emulator renders for a cluster: its response type plus the fields of the published answer
 * (`schemas/published/interface.json`) that the response schema leaves out because the provider never reads
 * them (response schemas tolerate extra fields, `schemas/common.ts`), and the pool `nodeIds` no published
 * answer has (wire reading `nodeIds: shown`).
 */
type KaasRendering = KaasResponse & {
  properties: { openstackProject: { id: string }; nodePools: { nodeIds?: string[] }[] };
};

/** The VPC URI of a cluster: the given one, or the one the preset created. */
export function kaasVpcUri(rec: KaasRecord): string | null {
  return (
    rec.props.vpcUri ??
    (rec.props.preset ? `/projects/${rec.projectId}/providers/Vendor.Network/vpcs/vpc-${rec.id}` : null)
  );
}

/**
 * Pod CIDRs the emulated service picks from when the cluster's create did not set one: the first that does not
 * overlap the node CIDR (spec §2.2 `podCidr`; how the real service chooses is not shown).
 */
const SERVICE_POD_CIDRS = ["10.244.0.0/16", "172.30.0.0/16", "192.168.128.0/17"];

/** The pod CIDR of a cluster: the one its create set, or the one the service chose. */
export function kaasPodCidr(rec: KaasRecord): string {
  if (rec.props.podCidr) return rec.props.podCidr;
  const node = parseCidr(rec.props.nodeCidr.address);
  const free = SERVICE_POD_CIDRS.find((candidate) => !node || !cidrOverlaps(parseCidr(candidate)!, node));
  return free ?? SERVICE_POD_CIDRS[0];
}

/**
 * The display name of a zone, as the `name` of a pool's `dataCenter`: zone `ITBG-1` of region `ITBG-Bergamo` is
 * `Bergamo 1`, any other code `Zone <code>`. Deterministic and never equal to the code, so a client that takes
 * the name for the code fails the tests.
 */
export function zoneLabel(code: string, location: string): string {
  const [region, city] = location.split("-", 2);
  const match = /^(.+)-(\d+)$/.exec(code);
  if (match && city && match[1].toUpperCase() === region.toUpperCase()) return `${city} ${match[2]}`;
  return `Zone ${code}`;
}

/**
 * The typology of a cluster, i.e. its cluster type (spec §2.8 "Cluster type configuration"): `ha` for clusters
 * with `ha: true`, `standard` otherwise, the way the limits of `clusterTypes` are chosen.
 */
function kaasTypology(rec: KaasRecord): { id: string; name: string } {
  return rec.props.ha ? { id: "kaas-ha", name: "KaaS HA" } : { id: "kaas", name: "KaaS" };
}

/** URI of a cluster (also its `metadata.uri`). */
export function kaasUri(namespace: string, projectId: string, id: string): string {
  return `${providerPrefix(namespace, projectId)}/kaas/${id}`;
}

/**
 * The cluster's attachments as responses show them under the wire reading `attachments` (config.ts
 * `WireReadings`), read per response so `PUT /_emulator/config` applies at once. An attachment shows from
 * `visibleFrom` until `visibleUntil` (attach and detach take time), whatever the reading: `attachedVolumes`
 * (a property the published responses do not have) with node and size, `linkedResources` (the published
 * `metadata.linkedResources`, `LinkedResourceResponseDto {uri, strictCorrelation}`: the volume, not its
 * node), or `hidden` (nothing; the store still holds them, `GET /_emulator/kaas/{id}/attachments`).
 */
function attachmentFields(
  rec: KaasRecord,
  ctx: RenderContext,
): {
  metadata: { linkedResources?: { uri: string; strictCorrelation: boolean }[] };
  properties: { attachedVolumes?: AttachedVolumeResponse[] };
} {
  const shown = rec.props.attachments.filter(
    (a) => a.visibleFrom <= ctx.now && (a.visibleUntil === null || a.visibleUntil > ctx.now),
  );
  switch (ctx.config.wire.attachments) {
    case "attachedVolumes":
      return {
        metadata: {},
        properties: {
          attachedVolumes: shown.map((a) => ({
            uri: a.uri,
            nodePoolName: a.nodePoolName,
            nodeId: a.nodeId,
            sizeGb: a.sizeGb,
          })),
        },
      };
    case "linkedResources":
      // A volume outlives the cluster it is attached to: the link is not a strict correlation.
      return {
        metadata: { linkedResources: shown.map((a) => ({ uri: a.uri, strictCorrelation: false })) },
        properties: {},
      };
    case "hidden":
      return { metadata: {}, properties: {} };
  }
}

/** Renders a cluster. */
export function renderKaas(rec: KaasRecord, ctx: RenderContext): KaasResponse {
  return withWireOverrides(rec, renderKaasAsStored(rec, ctx));
}

function renderKaasAsStored(rec: KaasRecord, ctx: RenderContext): KaasRendering {
  const attachments = attachmentFields(rec, ctx);
  const p = rec.props;
  const uri = kaasUri(ctx.namespace, rec.projectId, rec.id);
  const vpcUri = kaasVpcUri(rec);
  const subnetUri = presetSubnetUri(rec, p);
  const version = ctx.config.kubernetesVersions.find((v) => v.value === p.kubernetesVersion);
  const sgName = p.securityGroupName ?? `sg-${rec.id}`;
  const wire = ctx.config.wire;
  return {
    metadata: {
      ...metadataResponse(rec, uri, ctx.namespace, kaasTypology(rec)),
      ...attachments.metadata,
    },
    status: statusResponse(rec, ctx.config.wire.states),
    properties: {
      linkedResources: [vpcUri, subnetUri].filter((u): u is string => u !== null).map((u) => ({ uri: u })),
      preset: p.preset,
      vpc: { uri: vpcUri },
      subnet: { uri: subnetUri },
      kubernetesVersion: {
        value: p.kubernetesVersion,
        endOfSupportDate: version?.endOfSupportDate ?? null,
        recommended: version?.recommended ?? false,
        upgradeTo: p.upgradeTo
          ? { value: p.upgradeTo.value, scheduledAt: iso(p.upgradeTo.scheduledAt) }
          : null,
      },
      nodePools: p.nodePools.map((pool) => {
        const size = instanceSizeOf(ctx.config, pool.instance);
        return {
          name: pool.name,
          nodes: pool.nodeIds.length,
          autoscaling: pool.autoscaling,
          minCount: pool.minCount,
          maxCount: pool.maxCount,
          creationDate: iso(pool.createdAt),
          instance: {
            name: pool.instance,
            cpu: size?.cpu ?? null,
            ram: size?.ram ?? null,
            diskSizeGb: size?.diskSizeGb ?? null,
            price: size?.price ?? null,
          },
          // `name` is a display label, never the code: the published answer has `{name}` only (wire reading
          // `dataCenter: name`); `code` adds the code the create sent (api-notes "KaaS").
          dataCenter:
            wire.dataCenter === "code"
              ? { code: pool.dataCenter, name: zoneLabel(pool.dataCenter, rec.location) }
              : { name: zoneLabel(pool.dataCenter, rec.location) },
          // Not in any published answer; the emulator keeps the ids for attach and detach either way.
          ...(wire.nodeIds === "shown" ? { nodeIds: [...pool.nodeIds] } : {}),
        };
      }),
      podcidr: { address: kaasPodCidr(rec) },
      nodecidr: {
        address: p.nodeCidr.address,
        name: p.nodeCidr.name,
        uri: vpcUri ? `${vpcUri}/subnets/${p.nodeCidr.name}` : null,
      },
      securityGroup: {
        name: sgName,
        uri: `/projects/${rec.projectId}/providers/Vendor.Network/securityGroups/${sgName}`,
      },
      ha: p.ha,
      storage: { maxCumulativeVolumeSize: p.maxCumulativeVolumeSize },
      billingPlan: { billingPeriod: billingPeriodResponse(p.billingPeriod) },
      // Documented TEST-NET-1 addresses: the management IP appears once the cluster is provisioned.
      managementIp: provisioned(rec) ? `192.0.2.${(numberOf(rec.id) % 250) + 1}` : null,
      openstackProject: { id: `osp-${rec.projectId}` },
      identity: { clientId: p.clientId },
      autoscalerProfile: p.autoscalerProfile ?? null,
      apiServerAccessProfile: {
        authorizedIpRanges: p.authorizedIpRanges ? [...p.authorizedIpRanges] : null,
        enablePrivateCluster: p.enablePrivateCluster,
      },
      ...attachments.properties,
    },
    data: { private: { phase: phase(rec) } },
  };
}

// ---- The kind ----

/** The endpoints of clusters (`schemas/endpoints.ts`). */
type KaasEndpoint = Extract<
  EndpointName,
  | "createKaas"
  | "listKaas"
  | "getKaas"
  | "updateKaas"
  | "deleteKaas"
  | "downloadKubeconfig"
  | "detachVolumeFromCluster"
  | "updateNodePool"
  | "attachVolume"
  | "detachVolumeFromNode"
>;

/** The KaaS kind. */
export const kaasKind: KindModule<KaasRecord, KaasResponse, "kaas", KaasEndpoint> = {
  label: "KaaS",
  stateField: "kaas",
  handlers: {
    createKaas,
    listKaas: listHandler("kaas"),
    getKaas: getHandler("kaas"),
    updateKaas,
    deleteKaas: deleteHandler("kaas"),
    downloadKubeconfig,
    detachVolumeFromCluster,
    updateNodePool,
    attachVolume,
    detachVolumeFromNode,
  },
  render: renderKaas,
  settle: settleKaas,
  // A purged cluster takes its backups with it.
  purge: (store, rec) => {
    for (const child of [...store.records.backup.values()]) {
      if (child.kaasId === rec.id) store.records.backup.delete(child.id);
    }
  },
  find: (svc, req, allowDeleted) => findKaas(svc, req.projectId, req.params.id, allowDeleted),
  listScope: (_svc, req) => (rec) => rec.projectId === req.projectId,
  deleteMs: (durations) => durations.kaasDeleteMs,
  deleteEffects: kaasDeleteEffects,
  seeding: {
    underCluster: false,
    // The recommended Kubernetes version of the configuration (the first one without a recommendation) and one
    // pool of one `K2A4` node; the create rules are not applied, seeding is not a create.
    plan: (svc) => {
      const versions = svc.config.kubernetesVersions;
      const version = (versions.find((v) => v.recommended) ?? versions[0]).value;
      const properties: KaasInsert["properties"] = {
        preset: true,
        nodeCidr: { address: "10.0.0.0/16", name: "nodes" },
        kubernetesVersion: { value: version },
        nodePools: [{ name: "pool-1", nodes: 1, instance: "K2A4", dataCenter: "ITBG-1" }],
      };
      return { record: (base) => newKaasRecord(base, properties) };
    },
  },
};
