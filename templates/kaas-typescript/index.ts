// A managed Kubernetes cluster with one node pool and a container registry on Vendor.Container, meeting the
// package's policy pack (pulumi-vendor-container/policy) in every stack. The service settings (vendor:baseUrl,
// vendor:projectId, vendor:token) are stack config; see README.md.
import * as pulumi from "@pulumi/pulumi";
import { Kaas, KaasBackup, Registry } from "pulumi-vendor-container";

const config = new pulumi.Config();
const location = config.require("location");
const stack = pulumi.getStack();
// A stack the policy pack counts as production by default (prod, prod-*, *-prod, production) gets a highly
// available control plane and a backup of its cluster.
const production =
  ["prod", "production"].includes(stack) || stack.startsWith("prod-") || stack.endsWith("-prod");

const cluster = new Kaas("cluster", {
  name: `${pulumi.getProject()}-${stack}`,
  location,
  kubernetesVersion: config.require("kubernetesVersion"),
  nodeCidr: { address: "10.10.0.0/16", name: `${stack}-nodes` },
  nodePools: [
    { name: "default", nodes: config.requireNumber("nodeCount"), instance: "K4A8", dataCenter: "ITBG-1" },
  ],
  // The networks that may reach the API server: private addresses unless the stack config lists yours, e.g.
  // `pulumi config set --path 'authorizedIpRanges[0]' 203.0.113.0/24`.
  authorizedIpRanges: config.getObject<string[]>("authorizedIpRanges") ?? ["10.0.0.0/8"],
  ha: production,
});

if (production) {
  new KaasBackup("backup", {
    kaasId: cluster.kaasId,
    name: `${pulumi.getProject()}-${stack}`,
    location,
    retentionDays: 14,
  });
}

const registry = new Registry("images", {
  name: `${pulumi.getProject()}-${stack}-images`,
  location,
  adminUsername: "ops",
  size: "Small",
  billingPeriod: "Month",
});

export const kaasId = cluster.kaasId;
export const kubernetesVersion = cluster.currentKubernetesVersion;
/** The cluster's kubeconfig, always a secret: `pulumi stack output kubeconfig --show-secrets > kubeconfig`. */
export const kubeconfig = cluster.kubeconfig;
export const registryUrl = registry.publicBaseUrl;
