// Kubernetes on top of a managed cluster: a Kaas cluster, a Kubernetes provider configured with the cluster's
// `kubeconfig` output, and a namespace and a small deployment through that provider. Run it with `pulumi up`
// once `vendor:baseUrl`, `vendor:projectId` and `vendor:token` are set (docs/configuration.md "Configuration") and the
// Kubernetes provider plugin can be had (this folder's README).
//
// Stack config of this example (all optional):
//   kubernetesVersion   version the cluster runs (default 1.33.2)
//   replicas            replicas of the deployment (default 2)
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { Kaas } from "pulumi-vendor-container";

const config = new pulumi.Config();

const cluster = new Kaas("cluster", {
  name: `${pulumi.getStack()}-apps`,
  location: "ITBG-Bergamo",
  kubernetesVersion: config.get("kubernetesVersion") ?? "1.33.2",
  nodeCidr: { address: "10.30.0.0/16", name: "apps-nodes" },
  nodePools: [{ name: "apps", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" }],
  ha: true,
  authorizedIpRanges: ["192.168.10.0/24"],
});

// The kubeconfig is a secret output: the provider's configuration stays encrypted in the state. It is unknown
// until the cluster exists (the first preview), and in the preview of any change to the cluster.
// `clusterIdentifier` is the cluster's id, known in every preview once the cluster exists: the provider, and
// with it everything deployed through it, is replaced only when the cluster is, never because the kubeconfig
// was unknown or its credentials changed.
const kubernetes = new k8s.Provider("cluster", {
  kubeconfig: cluster.kubeconfig,
  clusterIdentifier: cluster.kaasId,
});

const namespace = new k8s.core.v1.Namespace("apps", { metadata: { name: "apps" } }, { provider: kubernetes });

const labels = { app: "hello" };
const deployment = new k8s.apps.v1.Deployment(
  "hello",
  {
    metadata: { namespace: namespace.metadata.name, labels },
    spec: {
      replicas: config.getNumber("replicas") ?? 2,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: "hello",
              image: "nginx:1.27",
              ports: [{ containerPort: 80 }],
              resources: { requests: { cpu: "50m", memory: "64Mi" } },
            },
          ],
        },
      },
    },
  },
  { provider: kubernetes },
);

export const kaasId = cluster.kaasId;
export const kubeconfig = cluster.kubeconfig; // secret: shown as [secret]
export const namespaceName = namespace.metadata.name;
export const deploymentName = deployment.metadata.name;
