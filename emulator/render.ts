/**
 * Renders stored records as the service's response objects (spec §2.4, §2.6, §2.7, with the reference's
 * spellings from api-notes: `nodecidr`, `podcidr`, pool `instance` as an object, `billingPlan.billingPeriod`
 * in the lower-case `hourly/monthly/yearly` variant, `identity{clientId}` only, registry `metadata.uri` under
 * `containerRegistries`). The renderers return `KaasResponse`, `BackupResponse` and `RegistryResponse` of
 * `schemas/`, and the integration tests check every answer against its endpoint's response schema. The wire
 * readings `nodeIds`, `dataCenter` and `states` (config.ts `WireReadings`) are read on every rendering, so
 * `PUT /_emulator/config` applies to the next answer.
 */
import type { BackupResponse } from "../schemas/kaasBackup";
import type { AttachedVolumeResponse, KaasResponse } from "../schemas/kaas";
import type { RegistryResponse } from "../schemas/registry";
import { iso } from "./clock";
import { instanceSizeOf, type EmulatorConfig, type WireReadings } from "./config";
import { cidrOverlaps, parseCidr } from "./rules";
import type {
  BackupRecord,
  BaseRecord,
  KaasRecord,
  Kind,
  LifeState,
  RecordByKind,
  RegistryRecord,
} from "./store";
import { PHASE_NAMES } from "./transitions";
import { withWireOverrides } from "./wireOverrides";

/** What rendering needs besides the record. */
export interface RenderContext {
  namespace: string;
  now: number;
  config: EmulatorConfig;
  /** Looks up a cluster, for the `kaas` summary of a backup. */
  findKaas: (id: string) => KaasRecord | undefined;
  /** Fill `data.info.version` of registries (only lists with `loadEngineVersion=true` do). */
  loadEngineVersion?: boolean;
}

/** The response object of each kind. */
export interface ResponseByKind {
  kaas: KaasResponse;
  backup: BackupResponse;
  registry: RegistryResponse;
}

/** A response object: the union of the three kinds. */
export type AnyResponse = ResponseByKind[Kind];

/**
 * Fields of the published answers (`schemas/published/interface.json`) that the response schemas of `schemas/`
 * leave out because the provider never reads them (response schemas tolerate extra fields, `schemas/common.ts`),
 * and the pool `nodeIds` no published answer has (wire reading `nodeIds: shown`). The emulator answers them, so
 * a rendering is its kind's response type plus these: the one place where the two differ.
 */
interface UnpinnedFields {
  kaas: { properties: { openstackProject: { id: string }; nodePools: { nodeIds?: string[] }[] } };
  backup: { properties: { linkedResources: { uri: string }[] } };
  registry: { properties: { linkedResources: { uri: string }[] } };
}

/** What the emulator renders for a record of kind K: its response type and the fields the schema leaves out. */
type Rendering<K extends Kind> = ResponseByKind[K] & UnpinnedFields[K];

const BILLING_PERIODS: Record<string, string> = { Hour: "hourly", Month: "monthly", Year: "yearly" };

/** The lower-case billing period answered for `Hour`, `Month`, `Year` (api-notes "KaaS"). */
export function billingPeriodResponse(period: string | null): string {
  if (period === null) return "hourly";
  return BILLING_PERIODS[period] ?? period.toLowerCase();
}

/** The provider path prefix of a project. */
export function providerPrefix(namespace: string, projectId: string): string {
  return `/projects/${projectId}/providers/${namespace}`;
}

function numberOf(id: string): number {
  return Number(/(\d+)$/.exec(id)?.[1] ?? 0);
}

function locationResponse(value: string) {
  const [region, city] = value.split("-", 2);
  return {
    code: value,
    country: /^[A-Za-z]{2}/.test(region) ? region.slice(0, 2).toUpperCase() : null,
    city: city ?? null,
    name: value,
    value,
  };
}

function metadataResponse(
  rec: BaseRecord,
  uri: string,
  namespace: string,
  typology: { id: string; name: string },
) {
  return {
    id: rec.id,
    uri,
    name: rec.name,
    location: locationResponse(rec.location),
    project: { id: rec.projectId },
    tags: [...rec.tags],
    category: { name: "Container", provider: namespace, typology },
    creationDate: iso(rec.createdAt),
    createdBy: "emulator",
    updateDate: iso(rec.updatedAt),
    updatedBy: "emulator",
    version: String(rec.version),
  };
}

/**
 * The `status.state` each lifecycle state answers under each `states` reading (config.ts `WireReadings`). The
 * emulator reasons on its own states; only responses, and so list filters on `status.state`, see these.
 */
export const STATE_VOCABULARIES: {
  readonly [V in WireReadings["states"]]: Readonly<Record<LifeState, string>>;
} = {
  service: {
    InCreation: "InCreation",
    Updating: "Updating",
    Deleting: "Deleting",
    Active: "Active",
    Failed: "Failed",
    Deleted: "Deleted",
  },
  upper: {
    InCreation: "INCREATION",
    Updating: "UPDATING",
    Deleting: "DELETING",
    Active: "ACTIVE",
    Failed: "FAILED",
    Deleted: "DELETED",
  },
  alternate: {
    InCreation: "Starting",
    Updating: "Changing",
    Deleting: "Removing",
    Active: "Ready",
    Failed: "Broken",
    Deleted: "Removed",
  },
};

function statusResponse(rec: BaseRecord, states: WireReadings["states"]) {
  const failed = rec.life.state === "Failed";
  const disabledReasons = rec.disabledReasons ?? [];
  return {
    state: STATE_VOCABULARIES[states][rec.life.state],
    creationDate: iso(rec.createdAt),
    failureReason: failed ? rec.life.failureReason : null,
    error: failed ? { reason: null, message: rec.life.failureReason } : null,
    disableStatusInfo: {
      isDisabled: disabledReasons.length > 0,
      reasons: [...disabledReasons],
      previousStatus: null,
    },
  };
}

function phase(rec: BaseRecord) {
  return { name: PHASE_NAMES[rec.life.state], startDate: iso(rec.life.since) };
}

/** Whether provisioning has completed and the resource is usable (drives output-only fields). */
function provisioned(rec: BaseRecord): boolean {
  return rec.provisionedAt !== null && rec.life.state !== "Failed";
}

/** The VPC URI of a cluster: the given one, or the one the preset created. */
export function kaasVpcUri(rec: KaasRecord): string | null {
  return (
    rec.props.vpcUri ??
    (rec.props.preset ? `/projects/${rec.projectId}/providers/Vendor.Network/vpcs/vpc-${rec.id}` : null)
  );
}

/** The subnet URI of a cluster or registry: the given one, or the one the preset created. */
function presetSubnetUri(
  rec: BaseRecord,
  props: { preset: boolean; subnetUri: string | null },
): string | null {
  return (
    props.subnetUri ??
    (props.preset
      ? `/projects/${rec.projectId}/providers/Vendor.Network/vpcs/vpc-${rec.id}/subnets/subnet-${rec.id}`
      : null)
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

function renderKaasAsStored(rec: KaasRecord, ctx: RenderContext): Rendering<"kaas"> {
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

/** Renders a backup. */
export function renderBackup(rec: BackupRecord, ctx: RenderContext): BackupResponse {
  return withWireOverrides(rec, renderBackupAsStored(rec, ctx));
}

function renderBackupAsStored(rec: BackupRecord, ctx: RenderContext): Rendering<"backup"> {
  const cluster = ctx.findKaas(rec.kaasId);
  const clusterUri = kaasUri(ctx.namespace, rec.projectId, rec.kaasId);
  const uri = `${clusterUri}/backups/${rec.id}`;
  const nodes = cluster ? cluster.props.nodePools.reduce((n, p) => n + p.nodeIds.length, 0) : 1;
  const days = rec.props.retentionDays;
  return {
    metadata: metadataResponse(rec, uri, ctx.namespace, { id: "kaas-backup", name: "KaaS Backup" }),
    status: statusResponse(rec, ctx.config.wire.states),
    properties: {
      linkedResources: [{ uri: clusterUri }],
      billingPeriod: rec.props.billingPeriod,
      type: rec.props.type,
      retentionDays: days,
      kaas: { uri: clusterUri, id: rec.kaasId, name: cluster?.name ?? null },
    },
    data: {
      info: {
        // A deterministic size: 256 MiB of etcd and manifests per node.
        sizeBytes: provisioned(rec) ? Math.max(1, nodes) * 268_435_456 : null,
        expiresAt:
          days !== null && provisioned(rec) ? iso((rec.provisionedAt as number) + days * 86_400_000) : null,
      },
      private: { phase: phase(rec) },
    },
  };
}

/** Renders a registry. */
export function renderRegistry(rec: RegistryRecord, ctx: RenderContext): RegistryResponse {
  return withWireOverrides(rec, renderRegistryAsStored(rec, ctx));
}

function renderRegistryAsStored(rec: RegistryRecord, ctx: RenderContext): Rendering<"registry"> {
  const p = rec.props;
  // Known quirk (api-notes "Registry"): the REST path is `registries/{id}` but `metadata.uri` says
  // `containerRegistries`.
  const uri = `${providerPrefix(ctx.namespace, rec.projectId)}/containerRegistries/${rec.id}`;
  const ready = provisioned(rec);
  const fqdn = `${rec.name.toLowerCase().replace(/[^a-z0-9-]/g, "-")}-${rec.id}.cr.emulator.invalid`;
  const vpcUri =
    p.vpcUri ?? (p.preset ? `/projects/${rec.projectId}/providers/Vendor.Network/vpcs/vpc-${rec.id}` : null);
  const subnetUri = presetSubnetUri(rec, p);
  return {
    metadata: metadataResponse(rec, uri, ctx.namespace, {
      id: "container-registry",
      name: "Container Registry",
    }),
    status: statusResponse(rec, ctx.config.wire.states),
    properties: {
      linkedResources: [],
      preset: p.preset,
      publicIp: { uri: p.publicIpUri },
      vpc: { uri: vpcUri },
      subnet: { uri: subnetUri },
      securityGroup: { uri: p.securityGroupUri },
      blockStorage: { uri: p.blockStorageUri },
      billingPlan: { billingPeriod: billingPeriodResponse(p.billingPeriod) },
      adminUser: { username: p.adminUsername },
      size: p.size,
    },
    data: {
      private: {
        passwordSet: ready,
        adminPasswordLastSetDate: ready ? iso(rec.passwordResetAt ?? (rec.provisionedAt as number)) : null,
      },
      info: {
        version: ctx.loadEngineVersion && ready ? ctx.config.registryEngineVersion : null,
        privateBaseUrl: ready ? `https://${rec.id}.internal.cr.emulator.invalid` : null,
        publicBaseUrl: ready ? `https://${fqdn}` : null,
        fqdn: ready ? fqdn : null,
      },
    },
  };
}

/** The renderer of each kind. */
export const RENDERERS: {
  readonly [K in Kind]: (rec: RecordByKind[K], ctx: RenderContext) => ResponseByKind[K];
} = { kaas: renderKaas, backup: renderBackup, registry: renderRegistry };

/** Renders a record of kind `kind`. */
export function renderRecord<K extends Kind>(
  kind: K,
  rec: RecordByKind[K],
  ctx: RenderContext,
): ResponseByKind[K] {
  return RENDERERS[kind](rec, ctx);
}
