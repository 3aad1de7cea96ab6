/**
 * The arguments and outputs of a Kaas, as plain values. The SDK class `Kaas` wraps these in
 * `pulumi.Input`/`pulumi.Output`, so this file is the one place where each argument is documented. The
 * argument schema is the one description of each argument: its documentation, type, what changing it does
 * and its check; only the rules that tie values together (pools, HA, versions, limits) are written out here.
 */
import {
  CREATED_OBJECT_ARGUMENTS,
  OBJECT_LOCATION,
  OBJECT_NAME,
  OBJECT_TAGS,
  PROJECT_ID,
  choice,
  flag,
  networkCheck,
  optional,
  required,
  text,
  type ArgumentsOf,
  type Checked,
} from "../common/arguments";
import { BILLING_PERIODS } from "../common/billing";
import {
  bool,
  futureDate,
  int,
  obj,
  quote,
  rejectUnknownProperties,
  str,
  strArray,
  type Problems,
} from "../common/check";
import { isPrivateCidr, parseCidr, PRIVATE_RANGES } from "../common/cidr";
import type { DeclaredLimits } from "../common/limits";
import { isUnknown } from "../common/unknown";
import { declaredLimitsProblems, KAAS_DECLARED_LIMITS, withinDeclaredLimits } from "./limits";
import { compareVersions, VERSION_PATTERN } from "../../schemas/versions";
import { keysOf } from "../common/typed";
import type { KindProperties } from "../common/properties";

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

const POOL_NAME = /^[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?$/;
const POOL_KEYS = ["name", "nodes", "instance", "dataCenter", "autoscaling", "minCount", "maxCount"];

function cidr(value: string, property: string, problems: Problems, privateOnly: boolean): void {
  if (!parseCidr(value)) {
    problems.add(property, `must be an IPv4 CIDR like 10.0.0.0/16, got ${quote(value)}`);
  } else if (privateOnly && !isPrivateCidr(value)) {
    problems.add(property, `must lie within ${PRIVATE_RANGES.join(", ")}, got ${quote(value)}`);
  }
}

function checkNodePools(value: unknown, problems: Problems, limits: DeclaredLimits | undefined): void {
  // The first rule that reads the declared limits reports a setting that cannot be read, once.
  declaredLimitsProblems(limits, problems);
  if (value === undefined || value === null) {
    problems.add("nodePools", "is required: at least one node pool");
    return;
  }
  if (isUnknown(value)) return;
  if (!Array.isArray(value)) {
    problems.add("nodePools", "must be a list of node pools");
    return;
  }
  if (value.length === 0) problems.add("nodePools", "must have at least one node pool");
  else withinDeclaredLimits(value.length, "nodePools", KAAS_DECLARED_LIMITS.nodePools, limits, problems);
  const seen = new Set<string>();
  value.forEach((item, i) => {
    const at = `nodePools[${i}]`;
    const pool = obj(item, at, problems, { required: true });
    if (!pool) return;
    rejectUnknownProperties(pool, POOL_KEYS, problems, `${at}.`);
    const name = str(pool.name, `${at}.name`, problems, {
      required: true,
      pattern: POOL_NAME,
      patternHint:
        "must be 1-40 lower-case letters, digits or '-', starting and ending with a letter or digit",
    });
    if (name !== undefined) {
      if (seen.has(name)) problems.add(`${at}.name`, `duplicates the pool name "${name}"`);
      seen.add(name);
    }
    const nodes = int(pool.nodes, `${at}.nodes`, problems, { required: true, min: 0, max: 1000 });
    str(pool.instance, `${at}.instance`, problems, { required: true });
    str(pool.dataCenter, `${at}.dataCenter`, problems, { required: true });
    const autoscaling = bool(pool.autoscaling, `${at}.autoscaling`, problems);
    const min = int(pool.minCount, `${at}.minCount`, problems, { min: 0, max: 1000 });
    const max = int(pool.maxCount, `${at}.maxCount`, problems, { min: 1, max: 1000 });
    const poolNodes = KAAS_DECLARED_LIMITS.poolNodes;
    if (nodes !== undefined) withinDeclaredLimits(nodes, `${at}.nodes`, poolNodes, limits, problems);
    if (autoscaling === true) {
      if (min !== undefined) withinDeclaredLimits(min, `${at}.minCount`, poolNodes, limits, problems);
      if (max !== undefined) withinDeclaredLimits(max, `${at}.maxCount`, poolNodes, limits, problems);
      if (pool.minCount === undefined || pool.minCount === null)
        problems.add(`${at}.minCount`, "is required when autoscaling is true");
      if (pool.maxCount === undefined || pool.maxCount === null)
        problems.add(`${at}.maxCount`, "is required when autoscaling is true");
      if (min !== undefined && max !== undefined && min > max) {
        problems.add(`${at}.minCount`, `must not exceed maxCount (${min} > ${max})`);
      } else if (
        nodes !== undefined &&
        min !== undefined &&
        max !== undefined &&
        (nodes < min || nodes > max)
      ) {
        problems.add(
          `${at}.nodes`,
          `must lie within minCount..maxCount (${min}..${max}) when autoscaling, got ${nodes}`,
        );
      }
    } else if (!isUnknown(pool.autoscaling)) {
      for (const key of ["minCount", "maxCount"]) {
        // An unknown bound (preview) is not validated: it may resolve to nothing.
        if (pool[key] !== undefined && pool[key] !== null && !isUnknown(pool[key]))
          problems.add(`${at}.${key}`, "only applies when autoscaling is true");
      }
      if (nodes === 0) problems.add(`${at}.nodes`, "must be at least 1 for a pool that does not autoscale");
    }
  });
}

/** Why `ha` cannot go from `true` to `false` (refused by `check` and by `diff`). */
export const HA_REFUSAL =
  "cannot be disabled: the service cannot turn high availability off once enabled, and replacing the cluster would destroy it; keep ha: true";

/**
 * Every argument a Kaas accepts. `ignore` rows are either adoption (`adoptId`, `adoptFromScope`) or compared
 * by the bespoke rules of `kaasExtraChanges` (`ha`, `kubernetesVersion`, `nodePools`). Create-only fields of
 * the service (api-notes "KaaS": preset, vpc, subnet, nodeCidr, podCidr, securityGroup, identity,
 * autoscalerProfile, and location) replace.
 */
export const KAAS_ARGUMENTS = {
  /** Project of the cluster. Default: stack config `vendor:projectId` or `VENDOR_PROJECT_ID`. Replaces. */
  projectId: PROJECT_ID,
  /** Cluster name. Updates in place. */
  name: OBJECT_NAME,
  /** Region, for example `ITBG-Bergamo`. Replaces. */
  location: OBJECT_LOCATION,
  /** Tags of the cluster (as an output: without the owner tag the package adds). Update in place. */
  tags: OBJECT_TAGS,
  /**
   * Let the service create the VPC and subnet (`true`), or use `vpcUri`/`subnetUri`. Default `true` when
   * neither URI is given. Replaces.
   */
  // `networkCheck` checks preset, vpcUri and subnetUri together: the service's network or an existing one.
  preset: optional<boolean>({ change: "replace", check: networkCheck }),
  /** URI of an existing VPC; requires `subnetUri` and `preset` not `true`. Replaces. */
  vpcUri: optional<string>({ change: "replace" }),
  /** URI of an existing subnet; requires `vpcUri`. Replaces. */
  subnetUri: optional<string>({ change: "replace" }),
  /** Node CIDR. Replaces. */
  nodeCidr: required<NodeCidrArgs>({
    change: "replace",
    check(value, property, { problems }) {
      const nodeCidr = obj(value, property, problems, { required: true });
      if (!nodeCidr) return;
      rejectUnknownProperties(nodeCidr, ["address", "name"], problems, "nodeCidr.");
      const address = str(nodeCidr.address, "nodeCidr.address", problems, { required: true });
      if (address !== undefined) cidr(address, "nodeCidr.address", problems, true);
      str(nodeCidr.name, "nodeCidr.name", problems, { required: true });
    },
  }),
  /** Pod CIDR. Default: chosen by the service. Replaces. */
  podCidr: optional<string>({
    change: "replace",
    check(value, property, { problems }) {
      const podCidr = str(value, property, problems);
      if (podCidr !== undefined) cidr(podCidr, property, problems, false);
    },
  }),
  /** Name of the security group the service creates for the cluster. Replaces. */
  securityGroupName: text("replace"),
  /**
   * Kubernetes version, one of the versions the service admits (e.g. `1.33.2`). Raising it upgrades in place
   * (at `upgradeDate` when set); lowering it below the current version is refused at preview.
   */
  kubernetesVersion: required<string>({
    change: "ignore",
    check(value, property, { olds, problems }) {
      const version = str(value, property, problems, {
        required: true,
        pattern: VERSION_PATTERN,
        patternHint: "must be a version like 1.33.2",
      });
      const oldVersion = typeof olds.kubernetesVersion === "string" ? olds.kubernetesVersion : undefined;
      if (
        version !== undefined &&
        oldVersion !== undefined &&
        VERSION_PATTERN.test(oldVersion) &&
        compareVersions(version, oldVersion) < 0
      ) {
        problems.add(
          property,
          `cannot go down from ${oldVersion} to ${version}: the service does not downgrade clusters`,
        );
      }
    },
  }),
  /**
   * Schedule the version upgrade for this ISO 8601 date-time instead of applying it at once. Must be in the
   * future when it is set or changed. In place.
   */
  upgradeDate: optional<string>({
    change: "update",
    check(value, property, { olds, news, problems, context }) {
      // The date must be in the future only when it is going to be sent: set or changed, or with a new version.
      const upgradeChanged = value !== olds.upgradeDate || news.kubernetesVersion !== olds.kubernetesVersion;
      if (value === undefined || value === null) return;
      if (upgradeChanged) futureDate(value, property, problems, context.now ?? Date.now());
      else str(value, property, problems);
    },
  }),
  /** Node pools, at least one, unique names. Adding, removing and resizing pools are in place. */
  nodePools: required<NodePoolArgs[]>({
    change: "ignore",
    matchedBy: "name",
    check: (value, _property, { problems, context }) => checkNodePools(value, problems, context.limits),
  }),
  /**
   * High availability: control plane replicated across 3 zones. `false -> true` is in place; `true ->
   * false` is refused at preview (the service cannot disable HA). Default `false`.
   */
  ha: optional<boolean>({
    change: "ignore",
    check(value, property, { olds, problems }) {
      const ha = bool(value, property, problems);
      if (olds.ha === true && ha !== true && !isUnknown(value)) problems.add(property, HA_REFUSAL);
    },
  }),
  /** Cap in GB on the sum of the sizes of all volumes of the cluster (spec §8). Default: no cap. In place. */
  maxCumulativeVolumeSize: optional<number>({
    change: "update",
    check(value, property, { problems, context }) {
      const size = int(value, property, problems, { min: 1 });
      const rule = KAAS_DECLARED_LIMITS.maxCumulativeVolumeSize;
      if (size !== undefined) withinDeclaredLimits(size, property, rule, context.limits, problems);
    },
  }),
  /** Billing period: `Hour`, `Month` or `Year`. Default: the service's. In place. */
  billingPeriod: choice("update", BILLING_PERIODS),
  /** Cluster identity credentials; always secret, in the state and as an output. Replaces. */
  identity: optional<IdentityArgs>({
    change: "replace",
    check(value, property, { problems }) {
      const identity = obj(value, property, problems);
      if (!identity) return;
      rejectUnknownProperties(identity, ["clientId", "clientSecret"], problems, "identity.");
      str(identity.clientId, "identity.clientId", problems);
      str(identity.clientSecret, "identity.clientSecret", problems);
    },
  }),
  /** CIDRs allowed to reach the API server. Default: any. In place. */
  authorizedIpRanges: optional<string[]>({
    change: "update",
    check(value, property, { problems, context }) {
      const ranges = strArray(value, property, problems, (range, at) => cidr(range, at, problems, false));
      const rule = KAAS_DECLARED_LIMITS.authorizedIpRanges;
      if (ranges) withinDeclaredLimits(ranges.length, property, rule, context.limits, problems);
    },
  }),
  /** Make the API server private. Default `false`. In place. */
  enablePrivateCluster: flag("update"),
  /** Autoscaler profile, passed to the service as is (its shape is not published). Replaces. */
  autoscalerProfile: optional<unknown>({ change: "replace" }),
  /** Also delete the elastic IPs the cluster used (e.g. for load balancers) when deleting it. Default `false`. */
  deleteOnCascade: flag("update"),
  ...CREATED_OBJECT_ARGUMENTS,
};

/**
 * Arguments of a Kaas, from its schema (`KAAS_ARGUMENTS`).
 *
 * @interface
 */
export type KaasInputs = ArgumentsOf<typeof KAAS_ARGUMENTS>;

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
 * does not compile (the SDK class reads it too, to seed the same names so preview shows them unknown). Order
 * is the order of `KAAS_COMPUTED_KEYS`.
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
export const KAAS_COMPUTED_KEYS = keysOf(KAAS_COMPUTED);

/**
 * What a cluster's state always keeps secret, whatever the program passed: its kubeconfig, and its identity,
 * which carries a client secret (an input, and an output as declared).
 */
export const KAAS_SECRETS = ["kubeconfig", "identity"] as const satisfies readonly (
  keyof KaasComputed | keyof KaasInputs
)[];

/** What a cluster is made of: its arguments, computed outputs and secrets, and the outputs no update changes. */
export const KAAS_PROPERTIES: KindProperties<typeof KAAS_ARGUMENTS, KaasComputed> = {
  arguments: KAAS_ARGUMENTS,
  computed: KAAS_COMPUTED_KEYS,
  secrets: KAAS_SECRETS,
  stable: ["kaasId", "uri", "creationDate"],
};
