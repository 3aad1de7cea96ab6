// A managed Kubernetes cluster with one node pool and a container registry on Vendor.Container. The service
// settings (vendor:baseUrl, vendor:projectId, vendor:token) are stack config; see README.md.
import * as pulumi from "@pulumi/pulumi";
import { Kaas, Registry } from "pulumi-vendor-container";

const config = new pulumi.Config();
const location = config.require("location");
const stack = pulumi.getStack();

const cluster = new Kaas("cluster", {
  name: `${pulumi.getProject()}-${stack}`,
  location,
  kubernetesVersion: config.require("kubernetesVersion"),
  nodeCidr: { address: "10.10.0.0/16", name: `${stack}-nodes` },
  nodePools: [
    { name: "default", nodes: config.requireNumber("nodeCount"), instance: "K4A8", dataCenter: "ITBG-1" },
  ],
});

const registry = new Registry("images", {
  name: `${pulumi.getProject()}-${stack}-images`,
  location,
  adminUsername: "ops",
  size: "Small",
});

export const kaasId = cluster.kaasId;
export const kubernetesVersion = cluster.currentKubernetesVersion;
/** The cluster's kubeconfig, always a secret: `pulumi stack output kubeconfig --show-secrets > kubeconfig`. */
export const kubeconfig = cluster.kubeconfig;
export const registryUrl = registry.publicBaseUrl;
