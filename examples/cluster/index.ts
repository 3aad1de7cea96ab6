// The main example: a production-style cluster with two node pools (one autoscaling), high availability,
// authorized IP ranges and a storage limit; a nightly backup; a registry; and a data volume attached to a
// node. Run it with `pulumi up` once `vendor:baseUrl`, `vendor:projectId` and `vendor:token` are set
// (README: "Configuration").
import * as pulumi from "@pulumi/pulumi";
import { Kaas, KaasBackup, Registry, VolumeAttachment } from "pulumi-vendor-container";

const config = new pulumi.Config();
const location = config.get("location") ?? "ITBG-Bergamo";

const cluster = new Kaas("cluster", {
  name: `${pulumi.getStack()}-cluster`,
  location,
  kubernetesVersion: config.get("kubernetesVersion") ?? "1.33.2",
  nodeCidr: { address: "10.20.0.0/16", name: "cluster-nodes" },
  nodePools: [
    { name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" },
    {
      name: "workers",
      nodes: 2,
      instance: "K8A16",
      dataCenter: "ITBG-2",
      autoscaling: true,
      minCount: 1,
      maxCount: 6,
    },
  ],
  ha: true,
  authorizedIpRanges: ["192.168.10.0/24"],
  maxCumulativeVolumeSize: 500,
  billingPeriod: "Month",
  timeouts: { create: "45m" },
});

const backup = new KaasBackup("nightly", {
  kaasId: cluster.kaasId,
  name: "nightly",
  location,
  retentionDays: 7,
  billingPeriod: "Month",
});

const registry = new Registry("images", {
  name: `${pulumi.getStack()}-images`,
  location,
  adminUsername: "ops",
  size: "Small",
  billingPeriod: "Month",
  adminPasswordResetTrigger: config.get("registryPasswordRotation") ?? "initial",
});

const data = new VolumeAttachment("data", {
  kaasId: cluster.kaasId,
  nodePoolName: "system",
  nodeId: cluster.currentNodePools.apply((pools) => pools.find((p) => p.name === "system")!.nodeIds[0]),
  volumeUri:
    config.get("dataVolumeUri") ?? "/projects/demo-project/providers/Vendor.Storage/blockStorages/data-1",
});

export const kaasId = cluster.kaasId;
export const kubeconfig = cluster.kubeconfig; // secret: shown as [secret]
export const registryUrl = registry.publicBaseUrl;
export const backupId = backup.backupId;
export const dataVolumeSizeGb = data.sizeGb;
