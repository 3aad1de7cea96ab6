// The application stack of an environment: it owns nothing of the platform and reads it through a stack
// reference to the platform stack of the same name. What the platform exports as a secret (the kubeconfig)
// stays a secret here. The cluster and registry are read with the functions' Output forms, which take the
// reference's outputs as they are; the application keeps its own backup schedule of the cluster.
import * as pulumi from "@pulumi/pulumi";
import { KaasBackup, getKaasOutput, getRegistryOutput } from "pulumi-vendor-container";

const environment = pulumi.getStack();
const config = new pulumi.Config();
const platformProject = config.get("platformProject") ?? "vendor-environments-platform";
const platform = new pulumi.StackReference(`${pulumi.getOrganization()}/${platformProject}/${environment}`);

const kaasId = platform.requireOutput("kaasId") as pulumi.Output<string>;
const registryId = platform.requireOutput("registryId") as pulumi.Output<string>;
const cluster = getKaasOutput({ kaasId });
const registry = getRegistryOutput({ registryId });

const backup = new KaasBackup("app-data", {
  kaasId,
  name: `${environment}-app-data`,
  location: platform.requireOutput("location") as pulumi.Output<string>,
  retentionDays: 3,
});

/** The platform's kubeconfig, through the reference: a secret. */
export const kubeconfig = platform.requireOutput("kubeconfig");
export const clusterName = cluster.name;
export const clusterState = cluster.state;
export const kubernetesVersion = cluster.currentKubernetesVersion;
export const registryUrl = registry.publicBaseUrl;
export const backupId = backup.backupId;
