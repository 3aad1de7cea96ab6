// The platform program shared by every environment: a cluster sized by the environment's preset, and a
// registry. The stack name is the environment; `../settings.ts` holds what sets environments apart, and the
// stack config `size` and `kubernetesVersion` (set by `environments up <env> --set key=value`) override it.
import * as pulumi from "@pulumi/pulumi";
import { Kaas, Registry } from "pulumi-vendor-container";
import { environmentSettings, sizePreset } from "../settings";

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
  tags: [`environment:${environment}`],
});

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
