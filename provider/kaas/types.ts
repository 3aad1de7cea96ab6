/**
 * The arguments and outputs of a Kaas, as plain values. The SDK class `Kaas` wraps these in
 * `pulumi.Input`/`pulumi.Output`, so this file is the one place where each argument is documented.
 */
import type { Checked } from "../common/arguments";
import type { BillingPeriod } from "../common/billing";
import type { Timeouts } from "../common/timeouts";

export type { BillingPeriod } from "../common/billing";

export type { Timeouts } from "../common/timeouts";

/** One node pool, matched by `name` (never by position). */
export interface NodePoolArgs {
  /** Pool name, unique within the cluster. Renaming a pool removes it and adds a new one (in place). */
  name: string;
  /**
   * Number of nodes. With `autoscaling`, the initial count, which must lie within `minCount..maxCount`; the
   * live count moving within those bounds is not a change. Changing it resizes the pool in place.
   */
  nodes: number;
  /** Node flavour name, for example `K4A8`. Changing it updates the pool in place. */
  instance: string;
  /**
   * Zone code of the pool's nodes, for example `ITBG-1` (not the display name the service may answer, such as
   * `Bergamo 1`). Changing it updates the pool in place.
   */
  dataCenter: string;
  /** Whether the pool autoscales between `minCount` and `maxCount`. Default `false`. In place. */
  autoscaling?: boolean;
  /** Lower bound of autoscaling. Required with `autoscaling`. In place. */
  minCount?: number;
  /** Upper bound of autoscaling. Required with `autoscaling`. In place. */
  maxCount?: number;
}

/** The cluster identity credentials (spec §2.2). */
export interface IdentityArgs {
  /** Identity client id. */
  clientId?: string;
  /** Identity client secret: accepted on input only, kept secret in state. */
  clientSecret?: string;
}

/** Node CIDR (spec §2.2). */
export interface NodeCidrArgs {
  /** CIDR within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16 (spec §8). */
  address: string;
  /** Name of the node CIDR. */
  name: string;
}

/** Arguments of a Kaas. */
export interface KaasInputs {
  /** Project of the cluster. Default: stack config `vendor:projectId` or `VENDOR_PROJECT_ID`. Replaces. */
  projectId?: string;
  /** Cluster name. Updates in place. */
  name: string;
  /** Region, for example `ITBG-Bergamo`. Replaces. */
  location: string;
  /** Tags of the cluster (as an output: without the owner tag the package adds). Update in place. */
  tags?: string[];
  /**
   * Let the service create the VPC and subnet (`true`), or use `vpcUri`/`subnetUri`. Default `true` when
   * neither URI is given. Replaces.
   */
  preset?: boolean;
  /** URI of an existing VPC; requires `subnetUri` and `preset` not `true`. Replaces. */
  vpcUri?: string;
  /** URI of an existing subnet; requires `vpcUri`. Replaces. */
  subnetUri?: string;
  /** Node CIDR. Replaces. */
  nodeCidr: NodeCidrArgs;
  /** Pod CIDR. Default: chosen by the service. Replaces. */
  podCidr?: string;
  /** Name of the security group the service creates for the cluster. Replaces. */
  securityGroupName?: string;
  /**
   * Kubernetes version, one of the versions the service admits (e.g. `1.33.2`). Raising it upgrades in place
   * (at `upgradeDate` when set); lowering it below the current version is refused at preview.
   */
  kubernetesVersion: string;
  /**
   * Schedule the version upgrade for this ISO 8601 date-time instead of applying it at once. Must be in the
   * future when it is set or changed. In place.
   */
  upgradeDate?: string;
  /** Node pools, at least one, unique names. Adding, removing and resizing pools are in place. */
  nodePools: NodePoolArgs[];
  /**
   * High availability: control plane replicated across 3 zones. `false -> true` is in place; `true ->
   * false` is refused at preview (the service cannot disable HA). Default `false`.
   */
  ha?: boolean;
  /** Cap in GB on the sum of the sizes of all volumes of the cluster (spec §8). Default: no cap. In place. */
  maxCumulativeVolumeSize?: number;
  /** Billing period: `Hour`, `Month` or `Year`. Default: the service's. In place. */
  billingPeriod?: BillingPeriod;
  /** Cluster identity credentials; always secret, in the state and as an output. Replaces. */
  identity?: IdentityArgs;
  /** CIDRs allowed to reach the API server. Default: any. In place. */
  authorizedIpRanges?: string[];
  /** Make the API server private. Default `false`. In place. */
  enablePrivateCluster?: boolean;
  /** Autoscaler profile, passed to the service as is (its shape is not published). Replaces. */
  autoscalerProfile?: unknown;
  /** Also delete the elastic IPs the cluster used (e.g. for load balancers) when deleting it. Default `false`. */
  deleteOnCascade?: boolean;
  /** Deadlines of create (default `"40m"`), update (`"40m"`) and delete (`"30m"`). */
  timeouts?: Timeouts;
  /**
   * Adopt this existing cluster id instead of creating one (the engine's import does not work for dynamic
   * resources). The declared arguments must match the live cluster. Changing it later has no effect.
   */
  adoptId?: string;
  /**
   * Confirms the adoption of a cluster that another resource created or adopted: the `<project>/<stack>/<name>`
   * its owner tag names, as the refusal of `adoptId` quotes it. Without it, `adoptId` refuses such a cluster,
   * since both stacks would then act on it. Changing it later has no effect.
   */
  adoptFromScope?: string;
}

/** Arguments of a Kaas as `check` returns them: the default project and the default `preset` filled in, the creation token computed. */
export type CheckedKaasInputs = Checked<KaasInputs>;

/** A node pool as the service reports it (no node ids: the service does not report them). */
export interface NodePoolStatus {
  /** Pool name. */
  name: string;
  /** Current number of nodes. */
  nodes: number;
  /** Node flavour name. */
  instance: string;
  /**
   * Zone of the nodes as the service reports it: the zone code (e.g. `ITBG-1`) when the answer carries one,
   * otherwise the zone's name, which may be a display label (the published answer has only a name).
   */
  dataCenter: string;
  /** Whether the pool autoscales. */
  autoscaling: boolean;
  /** Autoscaling lower bound, or null. */
  minCount: number | null;
  /** Autoscaling upper bound, or null. */
  maxCount: number | null;
}

/** A scheduled Kubernetes upgrade. */
export interface PendingUpgrade {
  /** Version the cluster will be upgraded to. */
  version: string;
  /** When the upgrade is scheduled. */
  scheduledAt: string | null;
}

/** Outputs of a Kaas beyond its arguments. */
export interface KaasComputed {
  /** Identifier of the cluster in the service. */
  kaasId: string;
  /** URI of the cluster. */
  uri: string | null;
  /** Service state, e.g. `Active`. */
  state: string | null;
  /** Provisioning phase name reported by the service. */
  phase: string | null;
  /** Management IP of the API server, once known. */
  managementIp: string | null;
  /** Kubernetes version running now (may be above `kubernetesVersion` after a platform upgrade). */
  currentKubernetesVersion: string | null;
  /** The scheduled upgrade, or null. */
  pendingUpgrade: PendingUpgrade | null;
  /** Node pools as they are now, with their current node counts (the service reports no node ids). */
  currentNodePools: NodePoolStatus[];
  /** URI of the security group the service manages for the cluster. */
  securityGroupUri: string | null;
  /** URI of the node CIDR. */
  nodeCidrUri: string | null;
  /** Creation date of the cluster. */
  creationDate: string | null;
  /** The cluster's kubeconfig (secret). */
  kubeconfig: string | null;
  /** URI of the cluster's VPC: the one `preset` created, or `vpcUri`. */
  currentVpcUri: string | null;
  /** URI of the cluster's subnet: the one `preset` created, or `subnetUri`. */
  currentSubnetUri: string | null;
  /** Pod CIDR of the cluster: `podCidr`, or the one the service chose when it was not set. */
  currentPodCidr: string | null;
  /** Name of the security group the service manages for the cluster: `securityGroupName`, or the one it chose. */
  currentSecurityGroupName: string | null;
  /** End-of-support date of the Kubernetes version running now (`currentKubernetesVersion`). */
  kubernetesVersionEndOfSupportDate: string | null;
  /** Whether the service recommends the Kubernetes version running now. */
  kubernetesVersionRecommended: boolean | null;
  /** Cluster type (the service's typology, which sets the cluster's limits), e.g. `KaaS`. */
  clusterType: string | null;
  /** Why the service disabled the cluster (`status.disableStatusInfo.reasons`); empty when it is not disabled. */
  disabledReasons: string[];
  /** Why the cluster is in a failure state, as the service reports it; null otherwise. */
  failureReason: string | null;
}

/**
 * Every computed output, once: a record keyed by `KaasComputed`, so an output added there and forgotten here
 * does not compile (the SDK class reads it too, to seed the same names so preview shows them unknown; this
 * module imports nothing at run time). Order is the order of `KAAS_COMPUTED_KEYS`.
 */
const KAAS_COMPUTED: Record<keyof KaasComputed, true> = {
  kaasId: true,
  uri: true,
  state: true,
  phase: true,
  managementIp: true,
  currentKubernetesVersion: true,
  pendingUpgrade: true,
  currentNodePools: true,
  securityGroupUri: true,
  nodeCidrUri: true,
  creationDate: true,
  kubeconfig: true,
  currentVpcUri: true,
  currentSubnetUri: true,
  currentPodCidr: true,
  currentSecurityGroupName: true,
  kubernetesVersionEndOfSupportDate: true,
  kubernetesVersionRecommended: true,
  clusterType: true,
  disabledReasons: true,
  failureReason: true,
};

/** The names of the computed outputs; everything else in state is an input. */
export const KAAS_COMPUTED_KEYS = Object.keys(KAAS_COMPUTED) as (keyof KaasComputed)[];
