/** The stored cluster (spec §4.1): its node pools, attachments and properties, and how they are built. */
import type { KaasInsert, NodePoolRequest } from "../../../schemas/kaas";
import type { BaseRecord } from "../../base/record";

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
export function orphanAttachments(rec: KaasRecord, nodeIds: string[]): void {
  for (const attachment of rec.props.attachments) {
    if (attachment.nodeId !== null && nodeIds.includes(attachment.nodeId)) attachment.nodeId = null;
  }
}

export function newPool(rec: KaasRecord, request: NodePoolRequest, now: number): PoolRecord {
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

/**
 * What a cluster's delete and purge read of a record that lives under a cluster (a backup): the fields every
 * record has, and the cluster it lives under. The kind of such records stays its own module's.
 */
export interface ClusterChildRecord extends BaseRecord {
  kaasId: string;
}

/** The records a cluster's handlers read, by kind: clusters, and their backups (a cluster's delete and purge). */
export type KaasView = { kaas: KaasRecord; backup: ClusterChildRecord };
