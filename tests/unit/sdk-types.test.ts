/**
 * The SDK classes' outputs as a strict TypeScript program uses them. The type-level checks
 * compile under `tsc --noEmit -p tsconfig.json` (part of `npm test`) or not at all; the run-time checks
 * construct the classes through Pulumi's mock monitor.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Kaas, KaasBackup, Registry, VolumeAttachment } from "../../sdk";
import {
  KAAS_BACKUP_OUTPUTS,
  KAAS_OUTPUTS,
  REGISTRY_OUTPUTS,
  VOLUME_ATTACHMENT_OUTPUTS,
} from "../support/output-names";

/** The arguments of `new k8s.Provider(name, args)` that a cluster feeds (@pulumi/kubernetes `ProviderArgs`). */
interface KubernetesProviderArgs {
  kubeconfig?: pulumi.Input<string>;
  namespace?: pulumi.Input<string>;
}

/** Compiles only while `kubeconfig` is an `Output<string>`: `Output<string | null>` is not an `Input<string>`. */
export function kubernetesProviderArgs(cluster: Kaas): KubernetesProviderArgs {
  const kubeconfig: pulumi.Input<string> = cluster.kubeconfig;
  return { kubeconfig, namespace: "default" };
}

/** The names of a class's `Output` properties, without the `urn` and `id` every resource has. */
type OutputNames<T> = Exclude<
  { [K in keyof T]-?: T[K] extends pulumi.Output<unknown> ? K : never }[keyof T],
  "urn" | "id"
>;

/** `true` when `A` and `B` are the same type, else `false` (a mismatch then fails to compile below). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// Each class declares exactly the outputs its provider returns (tests/integration/output-names.test.ts).
const declaredAsListed: [
  Equal<OutputNames<Kaas>, (typeof KAAS_OUTPUTS)[number]>,
  Equal<OutputNames<KaasBackup>, (typeof KAAS_BACKUP_OUTPUTS)[number]>,
  Equal<OutputNames<Registry>, (typeof REGISTRY_OUTPUTS)[number]>,
  Equal<OutputNames<VolumeAttachment>, (typeof VOLUME_ATTACHMENT_OUTPUTS)[number]>,
] = [true, true, true, true];

beforeAll(() => {
  return pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: () => ({}),
    },
    "proj",
    "dev",
    false,
  );
});

/** The value of an output, once the mock monitor resolved it. */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

/** The names of the `Output` properties of a constructed resource, without its bookkeeping. */
function outputNamesOf(resource: pulumi.CustomResource): string[] {
  const bookkeeping = ["urn", "id", "creationScope", "trackedId", "declaredBefore", "__provider"];
  return Object.entries(resource)
    .filter(([name, value]) => pulumi.Output.isInstance(value) && !bookkeeping.includes(name))
    .map(([name]) => name)
    .sort();
}

const CLUSTER_ARGS = {
  name: "prod",
  location: "ITBG-Bergamo",
  kubernetesVersion: "1.33.2",
  nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
  nodePools: [{ name: "system", nodes: 1, instance: "K4A8", dataCenter: "ITBG-1" }],
};

it("declares the listed outputs on every class", () => {
  expect(declaredAsListed).toEqual([true, true, true, true]);
});

it("makes every listed output of each class an output at run time, with only the required arguments set", async () => {
  const sdk = await import("../../sdk");
  const cluster = new sdk.Kaas("prod", CLUSTER_ARGS);
  const backup = new sdk.KaasBackup("nightly", {
    kaasId: cluster.kaasId,
    name: "nightly",
    location: "ITBG-Bergamo",
  });
  const registry = new sdk.Registry("images", {
    name: "images",
    location: "ITBG-Bergamo",
    adminUsername: "ops",
  });
  const attachment = new sdk.VolumeAttachment("data", {
    kaasId: cluster.kaasId,
    nodePoolName: "system",
    nodeId: "n-1",
    volumeUri: "/projects/p/providers/Vendor.Storage/blockStorages/v-1",
  });

  await Promise.all([cluster, backup, registry, attachment].map((resource) => valueOf(resource.urn)));

  expect(outputNamesOf(cluster)).toEqual([...KAAS_OUTPUTS].sort());
  expect(outputNamesOf(backup)).toEqual([...KAAS_BACKUP_OUTPUTS].sort());
  expect(outputNamesOf(registry)).toEqual([...REGISTRY_OUTPUTS].sort());
  expect(outputNamesOf(attachment)).toEqual([...VOLUME_ATTACHMENT_OUTPUTS].sort());
});

it("reads back a given argument, and an argument left out as undefined", async () => {
  const sdk = await import("../../sdk");
  const cluster = new sdk.Kaas("tagged", { ...CLUSTER_ARGS, tags: ["team-a"] });

  await valueOf(cluster.urn);

  expect(await valueOf(cluster.tags)).toEqual(["team-a"]);
  expect(await valueOf(cluster.authorizedIpRanges)).toBeUndefined();
  expect(await valueOf(cluster.nodeCidr)).toEqual({ address: "10.10.0.0/16", name: "prod-nodes" });
});
