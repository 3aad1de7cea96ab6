/** How a cluster renders (spec §4.1 response), in the wire readings of the configuration. */
import type { KaasResponse, AttachedVolumeResponse } from "../../../schemas/kaas";
import { iso } from "../../base/clock";
import { instanceSizeOf } from "../../base/config";
import {
  billingPeriodResponse,
  numberOf,
  objectResponse,
  phase,
  presetSubnetUri,
  providerPrefix,
  provisioned,
  type RenderContext,
} from "../../base/render";
import { cidrOverlaps, parseCidr } from "../../base/cidr";
import { withWireOverrides } from "../../base/wireOverrides";

import type { KaasRecord } from "./record";

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
export function attachmentFields(
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
  const { metadata, status } = objectResponse(rec, uri, ctx, kaasTypology(rec));
  return {
    metadata: { ...metadata, ...attachments.metadata },
    status,
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
