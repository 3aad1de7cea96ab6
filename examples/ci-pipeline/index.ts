// The program the sample pipelines deploy, one stack per environment (dev, prod): a cluster and its nightly
// backup. It is deliberately smaller than the main example (`../cluster`, which adds a registry and a volume
// attachment) so that the pipelines, which run every job of both samples through the engine in the tests,
// stay quick; the pipeline steps are the same for any program. It passes the package's policy pack with the
// settings in `policy.json`: the production cluster is highly available and backed up.
//
// Stack config (`Pulumi.<stack>.yaml`): `kubernetesVersion`, `location`, and `ha` (default true; the
// service cannot turn it off again once on).
import * as pulumi from "@pulumi/pulumi";
import { Kaas, KaasBackup } from "pulumi-vendor-container";

const config = new pulumi.Config();
const location = config.get("location") ?? "ITBG-Bergamo";

const cluster = new Kaas("cluster", {
  name: `${pulumi.getStack()}-cluster`,
  location,
  kubernetesVersion: config.get("kubernetesVersion") ?? "1.32.5",
  nodeCidr: { address: "10.20.0.0/16", name: "cluster-nodes" },
  nodePools: [{ name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" }],
  ha: config.getBoolean("ha") ?? true,
  authorizedIpRanges: ["192.168.10.0/24"],
  billingPeriod: "Month",
});

const backup = new KaasBackup("nightly", {
  kaasId: cluster.kaasId,
  name: "nightly",
  location,
  retentionDays: 14,
  billingPeriod: "Month",
});

export const kaasId = cluster.kaasId;
export const kubeconfig = cluster.kubeconfig; // secret: shown as [secret]
export const kubernetesVersion = cluster.currentKubernetesVersion;
export const nodePools = cluster.currentNodePools.apply((pools) => pools.map((p) => `${p.name}=${p.nodes}`));
export const backupId = backup.backupId;
