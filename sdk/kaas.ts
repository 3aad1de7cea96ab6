import * as pulumi from "@pulumi/pulumi";
import {
  KAAS_COMPUTED_KEYS,
  type BillingPeriod,
  type IdentityArgs,
  type KaasInputs,
  type NodeCidrArgs,
  type NodePoolArgs,
  type NodePoolStatus,
  type PendingUpgrade,
  type Timeouts,
} from "../provider/kaas/types";
import { MODULE } from "../provider/kinds";
import { skipUnreadLeakTraces } from "./leakTraces";
import { optionInputs, readOnlyProps } from "./options";
import { creationScope, idOutput, outputSeeds, type ArgumentSeeds, type ResourceArgs } from "./inputs";
import shell from "./shells/Kaas";

export type {
  KaasInputs,
  NodePoolArgs,
  NodePoolStatus,
  PendingUpgrade,
  Timeouts,
} from "../provider/kaas/types";

/** Arguments of a {@link Kaas}; each is documented on {@link KaasInputs}. */
export type KaasArgs = ResourceArgs<KaasInputs>;

/** Output-only names, seeded so the engine fills them in; `kaasId` is the resource id (see `idOutput`). */
const COMPUTED = outputSeeds(KAAS_COMPUTED_KEYS, "kaasId");

/** Every argument, seeded so that one a program leaves out is an output too (see `ArgumentSeeds`). */
const ARGUMENTS: ArgumentSeeds<KaasInputs, "adoptId" | "adoptFromScope"> = {
  projectId: undefined,
  name: undefined,
  location: undefined,
  tags: undefined,
  preset: undefined,
  vpcUri: undefined,
  subnetUri: undefined,
  nodeCidr: undefined,
  podCidr: undefined,
  securityGroupName: undefined,
  kubernetesVersion: undefined,
  upgradeDate: undefined,
  nodePools: undefined,
  ha: undefined,
  maxCumulativeVolumeSize: undefined,
  billingPeriod: undefined,
  identity: undefined,
  authorizedIpRanges: undefined,
  enablePrivateCluster: undefined,
  autoscalerProfile: undefined,
  deleteOnCascade: undefined,
  timeouts: undefined,
};

/**
 * A managed Kubernetes cluster of the Vendor.Container service, with node pools, optional high availability,
 * scheduled version upgrades and its kubeconfig.
 *
 * Safe for production clusters: changing a create-only argument replaces the cluster (shown as such by
 * preview), disabling HA and downgrading are refused at preview, creation is idempotent across interrupted
 * runs, and a cluster that fails to become ready stays in the stack with its id.
 *
 * @example
 * ```ts
 * const cluster = new Kaas("prod", {
 *   name: "prod", location: "ITBG-Bergamo", kubernetesVersion: "1.33.2",
 *   nodeCidr: { address: "10.10.0.0/16", name: "prod-nodes" },
 *   nodePools: [{ name: "default", nodes: 3, instance: "K4A8", dataCenter: "ITBG-1" }],
 * });
 * export const kubeconfig = cluster.kubeconfig;
 * ```
 */
export class Kaas extends pulumi.dynamic.Resource {
  /** Identifier of the cluster in the service. */
  declare readonly kaasId: pulumi.Output<string>;
  /** URI of the cluster. */
  declare readonly uri: pulumi.Output<string | null>;
  /** Service state, e.g. `Active`. */
  declare readonly state: pulumi.Output<string | null>;
  /** Provisioning phase reported by the service. */
  declare readonly phase: pulumi.Output<string | null>;
  /** Management IP of the API server. */
  declare readonly managementIp: pulumi.Output<string | null>;
  /** Kubernetes version running now (may be above `kubernetesVersion` after a platform upgrade). */
  declare readonly currentKubernetesVersion: pulumi.Output<string | null>;
  /** The scheduled upgrade, or null. */
  declare readonly pendingUpgrade: pulumi.Output<PendingUpgrade | null>;
  /** Node pools as they are now, with their current node counts (the service reports no node ids). */
  declare readonly currentNodePools: pulumi.Output<NodePoolStatus[]>;
  /** URI of the security group the service manages for the cluster. */
  declare readonly securityGroupUri: pulumi.Output<string | null>;
  /** URI of the node CIDR. */
  declare readonly nodeCidrUri: pulumi.Output<string | null>;
  /** Creation date of the cluster. */
  declare readonly creationDate: pulumi.Output<string | null>;
  /**
   * The cluster's kubeconfig, always secret: a string once the cluster has been Active, e.g. for
   * `new k8s.Provider("k8s", { kubeconfig: cluster.kubeconfig })`. Every create and update that succeeds waits
   * for Active and reads it (they fail when it cannot be read, and keep the last one read when only a new
   * read fails). Before the cluster was first Active (its creation failed and it has not been resumed), the
   * state holds null instead.
   */
  declare readonly kubeconfig: pulumi.Output<string>;
  /** URI of the cluster's VPC: the one `preset` created, or `vpcUri`. */
  declare readonly currentVpcUri: pulumi.Output<string | null>;
  /** URI of the cluster's subnet: the one `preset` created, or `subnetUri`. */
  declare readonly currentSubnetUri: pulumi.Output<string | null>;
  /** Pod CIDR of the cluster: `podCidr`, or the one the service chose when it was not set. */
  declare readonly currentPodCidr: pulumi.Output<string | null>;
  /** Name of the security group the service manages for the cluster: `securityGroupName`, or the one it chose. */
  declare readonly currentSecurityGroupName: pulumi.Output<string | null>;
  /** End-of-support date of the Kubernetes version running now (`currentKubernetesVersion`). */
  declare readonly kubernetesVersionEndOfSupportDate: pulumi.Output<string | null>;
  /** Whether the service recommends the Kubernetes version running now. */
  declare readonly kubernetesVersionRecommended: pulumi.Output<boolean | null>;
  /** Cluster type (the service's typology, which sets the cluster's limits), e.g. `KaaS`. */
  declare readonly clusterType: pulumi.Output<string | null>;
  /** Why the service disabled the cluster; empty when it is not disabled. */
  declare readonly disabledReasons: pulumi.Output<string[]>;
  /** Why the cluster is in a failure state, as the service reports it; null otherwise. */
  declare readonly failureReason: pulumi.Output<string | null>;
  /** Project of the cluster: `projectId`, or the configured default. */
  declare readonly projectId: pulumi.Output<string>;
  /** Cluster name. */
  declare readonly name: pulumi.Output<string>;
  /** Region of the cluster. */
  declare readonly location: pulumi.Output<string>;
  /** Declared tags (without the owner tag the package adds), or undefined. */
  declare readonly tags: pulumi.Output<string[] | undefined>;
  /** Whether the service created the VPC and subnet: `preset`, or its default. */
  declare readonly preset: pulumi.Output<boolean | undefined>;
  /** Declared VPC URI, or undefined (see `currentVpcUri` for the one in use). */
  declare readonly vpcUri: pulumi.Output<string | undefined>;
  /** Declared subnet URI, or undefined (see `currentSubnetUri` for the one in use). */
  declare readonly subnetUri: pulumi.Output<string | undefined>;
  /** Declared node CIDR. */
  declare readonly nodeCidr: pulumi.Output<NodeCidrArgs>;
  /** Declared pod CIDR, or undefined (see `currentPodCidr` for the one in use). */
  declare readonly podCidr: pulumi.Output<string | undefined>;
  /** Declared security group name, or undefined (see `currentSecurityGroupName`). */
  declare readonly securityGroupName: pulumi.Output<string | undefined>;
  /** Declared Kubernetes version. */
  declare readonly kubernetesVersion: pulumi.Output<string>;
  /** Declared date of the scheduled version upgrade, or undefined. */
  declare readonly upgradeDate: pulumi.Output<string | undefined>;
  /** Declared node pools. */
  declare readonly nodePools: pulumi.Output<NodePoolArgs[]>;
  /** Whether the control plane is highly available, as declared. */
  declare readonly ha: pulumi.Output<boolean | undefined>;
  /** Declared cap in GB on the sum of the cluster's volume sizes, or undefined. */
  declare readonly maxCumulativeVolumeSize: pulumi.Output<number | undefined>;
  /** Declared billing period, or undefined. */
  declare readonly billingPeriod: pulumi.Output<BillingPeriod | undefined>;
  /** Declared cluster identity credentials, or undefined. Always secret. */
  declare readonly identity: pulumi.Output<IdentityArgs | undefined>;
  /** Declared CIDRs allowed to reach the API server, or undefined (any). */
  declare readonly authorizedIpRanges: pulumi.Output<string[] | undefined>;
  /** Whether the API server is private, as declared. */
  declare readonly enablePrivateCluster: pulumi.Output<boolean | undefined>;
  /** Declared autoscaler profile, as given. */
  declare readonly autoscalerProfile: pulumi.Output<unknown>;
  /** Whether deleting the cluster also deletes its elastic IPs, as declared. */
  declare readonly deleteOnCascade: pulumi.Output<boolean | undefined>;
  /** Deadlines of create, update and delete, as declared. */
  declare readonly timeouts: pulumi.Output<Timeouts | undefined>;

  /**
   * @param name The unique name of the resource in the stack.
   * @param args The cluster's arguments.
   * @param opts Resource options. `kubeconfig` and `identity` are always added to `additionalSecretOutputs`,
   *   and the `identity` input is always stored as a secret. `customTimeouts` set the deadlines of `timeouts`
   *   that the argument leaves out (a deadline set by both to different durations is refused);
   *   `replaceOnChanges` names arguments whose change replaces the cluster (or `"*"`); `import` is refused,
   *   since `adoptId` takes an existing cluster over. With `id`, the cluster is read, as {@link Kaas.get}
   *   does.
   */
  constructor(name: string, args: KaasArgs, opts?: pulumi.CustomResourceOptions) {
    // Promise-leak traces that only PULUMI_DEBUG_PROMISE_LEAKS reads stay unformatted (see leakTraces.ts).
    const restoreTraces = skipUnreadLeakTraces();
    try {
      const scope = creationScope(pulumi, name);
      super(
        shell,
        name,
        opts?.id !== undefined
          ? { ...ARGUMENTS, ...readOnlyProps(scope, { projectId: args?.projectId }), ...COMPUTED }
          : {
              ...ARGUMENTS,
              ...args,
              ...optionInputs("Kaas", name, args.timeouts, opts),
              // The identity carries a client secret: the input is stored encrypted in state even when the
              // program passed it in plain text.
              identity: args.identity === undefined ? undefined : pulumi.secret(args.identity),
              creationScope: scope,
              ...COMPUTED,
            },
        {
          ...opts,
          additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "kubeconfig", "identity"],
        },
        MODULE,
        "Kaas",
      );
    } finally {
      restoreTraces();
    }
    this.kaasId = idOutput(this);
  }
  /**
   * Reads an existing cluster as a read-only resource of the stack: the stack never updates or deletes it,
   * and each `pulumi up` reads it again. Its outputs are the cluster as the service shows it: `name`,
   * `location`, `tags`, every computed output (`state`, `currentKubernetesVersion`, `currentNodePools`, ...)
   * and `kubeconfig`, a secret; the other arguments are undefined. A cluster that does not exist fails the
   * run with an error naming the id.
   *
   * @param name The unique name of the resource in the stack.
   * @param id The cluster id (`kaasId` of the stack that manages it).
   * @param opts Resource options; the project is `vendor:projectId` (or `VENDOR_PROJECT_ID`).
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Kaas {
    return new Kaas(name, {} as KaasArgs, { ...opts, id });
  }
}
