// The platform program shared by every environment: a cluster sized by the environment's preset, reachable from
// the team's networks only, a registry, and in production the cluster's backup. The stack name is the environment; `../settings.ts` holds what sets environments apart, and the
// stack config `size` and `kubernetesVersion` (set by `environments up <env> --set key=value`) override it.
import * as pulumi from "@pulumi/pulumi";
import { Kaas, KaasBackup, Registry } from "pulumi-vendor-container";
import { AUTHORIZED_IP_RANGES, environmentSettings, sizePreset } from "../settings";

const environment = pulumi.getStack();
const settings = environmentSettings(environment);
const config = new pulumi.Config();
const sizeName = config.get("size") ?? settings.size;
const size = sizePreset(sizeName);

const cluster = new Kaas(
  "cluster",
  {
    name: `${environment}-cluster`,
    location: settings.location,
    kubernetesVersion: config.get("kubernetesVersion") ?? settings.kubernetesVersion,
    nodeCidr: { address: settings.nodeCidr, name: `${environment}-nodes` },
    nodePools: size.nodePools,
    ha: size.ha,
    authorizedIpRanges: AUTHORIZED_IP_RANGES,
    tags: [`environment:${environment}`],
  },
  // A protected environment's cluster cannot be deleted by any `pulumi destroy` or replacement.
  { protect: settings.protect },
);

const registry = new Registry("images", {
  name: `${environment}-images`,
  location: settings.location,
  adminUsername: "ops",
  size: size.registrySize,
  billingPeriod: "Month",
  tags: [`environment:${environment}`],
});

// The cluster's backup belongs to the platform, which owns the cluster: it exists from the cluster's first day,
// whatever applications run on it, and the policy pack sees it next to its cluster (a stack rule judges one stack).
// Application stacks may keep backups of their own on top of it (`app/index.ts`).
if (settings.backupRetentionDays !== null) {
  new KaasBackup("cluster-backup", {
    kaasId: cluster.kaasId,
    name: `${environment}-platform`,
    location: settings.location,
    retentionDays: settings.backupRetentionDays,
  });
}

export const preset = sizeName;
export const protectedEnvironment = settings.protect;
export const location = settings.location;
export const kaasId = cluster.kaasId;
export const kubeconfig = cluster.kubeconfig; // secret, and still secret in the stacks that reference it
export const clusterState = cluster.state;
export const kubernetesVersion = cluster.currentKubernetesVersion;
export const ha = cluster.ha;
export const nodePools = cluster.currentNodePools.apply((pools) => pools.map((p) => `${p.name}=${p.nodes}`));
export const registryId = registry.registryId;
export const registryUrl = registry.publicBaseUrl;
