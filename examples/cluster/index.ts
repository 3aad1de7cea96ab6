// The main example: a production-style cluster with two node pools (one autoscaling), high availability,
// authorized IP ranges and a storage limit; a nightly backup; a registry; and a data volume attached to a
// node. Run it with `pulumi up` once `vendor:baseUrl`, `vendor:projectId` and `vendor:token` are set
// (docs/configuration.md "Configuration").
//
// Stack config of this example (all optional):
//   kubernetesVersion   version to run, or to upgrade to with upgradeDate (default 1.32.5)
//   upgradeDate         ISO date-time: schedule the upgrade to kubernetesVersion for then
//   systemNodes         node count of the system pool (default 2)
//   ha                  high availability (default true; the service cannot turn it off again)
//   dataNodeId          a node of the system pool to attach the data volume to. The service lists no nodes:
//                       take a node id from the cluster itself (`kubectl get nodes`, with the kubeconfig
//                       output). Without it, no volume is attached.
//   dataVolumeUri       block storage to attach
//   registryPasswordRotation  change it to reset the registry's admin password
import * as pulumi from "@pulumi/pulumi";
import { Kaas, KaasBackup, Registry, VolumeAttachment } from "pulumi-vendor-container";

const config = new pulumi.Config();
const location = config.get("location") ?? "ITBG-Bergamo";
const upgradeDate = config.get("upgradeDate");

const cluster = new Kaas("cluster", {
  name: `${pulumi.getStack()}-cluster`,
  location,
  kubernetesVersion: config.get("kubernetesVersion") ?? "1.32.5",
  ...(upgradeDate ? { upgradeDate } : {}),
  nodeCidr: { address: "10.20.0.0/16", name: "cluster-nodes" },
  nodePools: [
    { name: "system", nodes: config.getNumber("systemNodes") ?? 2, instance: "K4A8", dataCenter: "ITBG-1" },
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
  ha: config.getBoolean("ha") ?? true,
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

const dataNodeId = config.get("dataNodeId");
const data = dataNodeId
  ? new VolumeAttachment("data", {
      kaasId: cluster.kaasId,
      nodePoolName: "system",
      nodeId: dataNodeId,
      volumeUri:
        config.get("dataVolumeUri") ?? "/projects/demo-project/providers/Vendor.Storage/blockStorages/data-1",
    })
  : undefined;

export const kaasId = cluster.kaasId;
export const kubeconfig = cluster.kubeconfig; // secret: shown as [secret]
export const kubernetesVersion = cluster.currentKubernetesVersion;
export const kubernetesEndOfSupport = cluster.kubernetesVersionEndOfSupportDate;
export const kubernetesVersionRecommended = cluster.kubernetesVersionRecommended;
export const pendingUpgrade = cluster.pendingUpgrade;
export const nodePools = cluster.currentNodePools.apply((pools) => pools.map((p) => `${p.name}=${p.nodes}`));
export const clusterType = cluster.clusterType;
export const clusterNetwork = {
  vpcUri: cluster.currentVpcUri,
  subnetUri: cluster.currentSubnetUri,
  podCidr: cluster.currentPodCidr,
  securityGroupName: cluster.currentSecurityGroupName,
};
export const clusterProblems = {
  disabledReasons: cluster.disabledReasons,
  failureReason: cluster.failureReason,
};
export const backupId = backup.backupId;
export const backupCreated = backup.creationDate;
export const backupRetentionDays = backup.currentRetentionDays;
export const registryUrl = registry.publicBaseUrl;
export const registrySize = registry.currentSize;
export const registryAdmin = registry.currentAdminUsername;
export const registryNetwork = {
  vpcUri: registry.currentVpcUri,
  subnetUri: registry.currentSubnetUri,
  securityGroupUri: registry.currentSecurityGroupUri,
  publicIpUri: registry.currentPublicIpUri,
  blockStorageUri: registry.currentBlockStorageUri,
};
// Without `dataNodeId`, no volume is attached: both read null.
export const dataVolumeSizeGb = data ? data.sizeGb : null;
/** How far the service let the attachment be checked: `node`, `cluster` or `none` (it shows no attachments). */
export const dataVolumeVerification = data ? data.verification : null;
