/**
 * The pack's rules on Kaas clusters: high availability in production stacks, authorized IP ranges of the API
 * server, the Kubernetes version floor and end of support, and node pool sizes.
 */
import type {
  PolicyConfigSchema,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationPolicy,
} from "@pulumi/policy";
import { parseCidr } from "../provider/common/cidr";
import { isRecord } from "../schemas/typed";
import { compareVersions, VERSION_PATTERN } from "../schemas/versions";
import {
  day,
  isKindType,
  isUnknown,
  matchesAny,
  named,
  plainProps,
  resourcesOfKind,
  settings,
  stackOfUrn,
  type Props,
} from "./values";
import { closedParameters } from "./parameters";

/** Stack names (`*` matches any run of characters) that count as production by default. */
export const PRODUCTION_STACKS = ["prod", "prod-*", "*-prod", "production"];

/** Configuration schema of a list of stack-name patterns. */
export const STACKS_SCHEMA: PolicyConfigSchema["properties"][string] = {
  type: "array",
  items: { type: "string", minLength: 1 },
  default: PRODUCTION_STACKS,
  description: "Stack names the rule applies to; `*` matches any run of characters.",
};

/** Runs `validate` with the plain properties of Kaas resources only. */
function onKaas(
  validate: (props: Props, args: ResourceValidationArgs, report: ReportViolation) => void,
): (args: ResourceValidationArgs, report: ReportViolation) => void {
  return (args, report) => {
    if (isKindType(args.type, "Kaas")) validate(plainProps(args.props), args, report);
  };
}

const isKnownString = (value: unknown): value is string => typeof value === "string" && !isUnknown(value);

/** Settings of `kaas-ha-in-production`. */
export interface HaInProductionSettings {
  /** Stack-name patterns of production stacks. Default {@link PRODUCTION_STACKS}. */
  stacks: string[];
}
const HA_DEFAULTS: HaInProductionSettings = { stacks: PRODUCTION_STACKS };

/** Production stacks' clusters have `ha: true`. */
export const kaasHaInProduction = closedParameters<ResourceValidationPolicy>({
  name: "kaas-ha-in-production",
  description: "Clusters of production stacks have a highly available control plane (ha: true).",
  enforcementLevel: "mandatory",
  configSchema: { properties: { stacks: STACKS_SCHEMA } },
  validateResource: onKaas((props, args, report) => {
    const { stacks } = settings(HA_DEFAULTS, args.getConfig<Partial<HaInProductionSettings>>());
    const stack = stackOfUrn(args.urn);
    if (!matchesAny(stacks, stack) || props.ha === true || isUnknown(props.ha)) return;
    const is = props.ha === undefined ? "not set (false by default)" : JSON.stringify(props.ha);
    report(
      `${named("Kaas", args.name)} ha: ${is}; clusters of production stack "${stack}" must set ha: true`,
    );
  }),
});

/** Settings of `kaas-authorized-ip-ranges`. */
export interface AuthorizedIpRangesSettings {
  /** Shortest prefix length a range may have: `/8` allows `10.0.0.0/8`, not `10.0.0.0/7`. Default 8. */
  minPrefixLength: number;
  /** Whether private clusters (`enablePrivateCluster: true`) must list ranges too. Default false. */
  requireForPrivateClusters: boolean;
}
const RANGES_DEFAULTS: AuthorizedIpRangesSettings = { minPrefixLength: 8, requireForPrivateClusters: false };

/** The API server is reachable only from listed ranges, none of them `/0` or wider than the configured prefix. */
export const kaasAuthorizedIpRanges = closedParameters<ResourceValidationPolicy>({
  name: "kaas-authorized-ip-ranges",
  description:
    "Cluster API servers accept connections only from listed networks (authorizedIpRanges), none of them the whole internet or wider than the configured prefix.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      minPrefixLength: {
        type: "integer",
        minimum: 1,
        maximum: 32,
        default: RANGES_DEFAULTS.minPrefixLength,
        description: "Shortest prefix length an authorized range may have (0.0.0.0/0 is always refused).",
      },
      requireForPrivateClusters: {
        type: "boolean",
        default: RANGES_DEFAULTS.requireForPrivateClusters,
        description: "Whether private clusters (enablePrivateCluster: true) must list ranges too.",
      },
    },
  },
  validateResource: onKaas((props, args, report) => {
    const config = settings(RANGES_DEFAULTS, args.getConfig<Partial<AuthorizedIpRangesSettings>>());
    const who = named("Kaas", args.name);
    const ranges = props.authorizedIpRanges;
    if (isUnknown(ranges)) return;
    if (!Array.isArray(ranges) || ranges.length === 0) {
      const privateCluster = props.enablePrivateCluster;
      if (isUnknown(privateCluster) || (privateCluster === true && !config.requireForPrivateClusters)) return;
      report(
        `${who} authorizedIpRanges: ${ranges === undefined ? "not set" : "empty"}, so the API server accepts connections from any address; list the networks that may reach it`,
      );
      return;
    }
    ranges.forEach((range, index) => {
      // A malformed range is `check`'s to refuse, with its own message.
      const cidr = isKnownString(range) ? parseCidr(range) : undefined;
      if (!cidr) return;
      const at = `${who} authorizedIpRanges[${index}]`;
      if (cidr.prefix === 0) {
        report(`${at}: "${range}" opens the API server to every address`);
      } else if (cidr.prefix < config.minPrefixLength) {
        report(`${at}: "${range}" is wider than /${config.minPrefixLength} (minPrefixLength)`);
      }
    });
  }),
});

/** Settings of `kaas-kubernetes-minimum-version`. */
export interface MinimumVersionSettings {
  /** Lowest Kubernetes version a cluster may declare, e.g. `1.32` or `1.32.5`. Default `1.31.0`. */
  minimumVersion: string;
}
const MINIMUM_VERSION_DEFAULTS: MinimumVersionSettings = { minimumVersion: "1.31.0" };

/** Clusters declare a Kubernetes version at or above the configured minimum. */
export const kaasKubernetesMinimumVersion = closedParameters<ResourceValidationPolicy>({
  name: "kaas-kubernetes-minimum-version",
  description:
    "Clusters declare a Kubernetes version (kubernetesVersion) at or above the configured minimum.",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      minimumVersion: {
        type: "string",
        pattern: VERSION_PATTERN.source,
        default: MINIMUM_VERSION_DEFAULTS.minimumVersion,
        description: "Lowest Kubernetes version a cluster may declare, e.g. 1.32 or 1.32.5.",
      },
    },
  },
  validateResource: onKaas((props, args, report) => {
    const { minimumVersion } = settings(
      MINIMUM_VERSION_DEFAULTS,
      args.getConfig<Partial<MinimumVersionSettings>>(),
    );
    const version = props.kubernetesVersion;
    // A version that is not one (`check` refuses it) or not known yet is not judged.
    if (!isKnownString(version) || !VERSION_PATTERN.test(version)) return;
    if (compareVersions(version, minimumVersion) < 0) {
      report(
        `${named("Kaas", args.name)} kubernetesVersion: ${version} is below the minimum ${minimumVersion} (minimumVersion)`,
      );
    }
  }),
});

/** Settings of `kaas-node-pool-size`. */
export interface NodePoolSizeSettings {
  /** Fewest nodes a pool may have (`nodes`, and `minCount` when autoscaling). Default 1. */
  minNodes: number;
  /** Most nodes a pool may have (`nodes`, and `maxCount` when autoscaling). Default 20. */
  maxNodes: number;
}
const POOL_DEFAULTS: NodePoolSizeSettings = { minNodes: 1, maxNodes: 20 };

const nodesText = (count: number) => `${count} ${count === 1 ? "node" : "nodes"}`;

/** Every pool's `nodes`, `minCount` and `maxCount` lie within the configured bounds. */
export const kaasNodePoolSize = closedParameters<ResourceValidationPolicy>({
  name: "kaas-node-pool-size",
  description: "Node pools stay within the configured node count bounds (nodes, minCount, maxCount).",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      minNodes: {
        type: "integer",
        minimum: 0,
        default: POOL_DEFAULTS.minNodes,
        description: "Fewest nodes a pool may have.",
      },
      maxNodes: {
        type: "integer",
        minimum: 1,
        default: POOL_DEFAULTS.maxNodes,
        description: "Most nodes a pool may have.",
      },
    },
  },
  validateResource: onKaas((props, args, report) => {
    const { minNodes, maxNodes } = settings(POOL_DEFAULTS, args.getConfig<Partial<NodePoolSizeSettings>>());
    const pools = props.nodePools;
    if (!Array.isArray(pools)) return;
    pools.forEach((pool: unknown, index) => {
      if (!isRecord(pool)) return;
      const p = pool;
      const label = isKnownString(p.name) ? `nodePools[${index}] ("${p.name}")` : `nodePools[${index}]`;
      for (const field of ["nodes", "minCount", "maxCount"] as const) {
        const count = p[field];
        if (typeof count !== "number") continue;
        const at = `${named("Kaas", args.name)} ${label}.${field}: ${count}`;
        if (count < minNodes)
          report(`${at} is below the minimum of ${nodesText(minNodes)} per pool (minNodes)`);
        if (count > maxNodes)
          report(`${at} is above the maximum of ${nodesText(maxNodes)} per pool (maxNodes)`);
      }
    });
  }),
});

/** Settings of `kaas-kubernetes-end-of-support`. */
export interface EndOfSupportSettings {
  /** Days of support that must be left; 0 refuses only versions already past their end. Default 0. */
  minDaysOfSupportLeft: number;
}
const END_OF_SUPPORT_DEFAULTS: EndOfSupportSettings = { minDaysOfSupportLeft: 0 };
const DAY_MS = 24 * 60 * 60 * 1000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T|$)/;

/**
 * Clusters do not run a Kubernetes version past (or within the configured days of) its end of support, as the
 * live outputs report it (`kubernetesVersionEndOfSupportDate` of `currentKubernetesVersion`). A stack rule: only
 * the outputs carry the date, and a cluster not created yet (or being updated, at preview) has none, so it is
 * judged once it runs. A cluster whose declared `kubernetesVersion` or scheduled upgrade is above the running
 * version is on its way off it and passes, so the rule never blocks the upgrade that fixes it.
 */
export function kaasKubernetesEndOfSupport(now: () => Date): StackValidationPolicy {
  return closedParameters<StackValidationPolicy>({
    name: "kaas-kubernetes-end-of-support",
    description:
      "Clusters do not run a Kubernetes version past (or near) its end of support, as the service reports it (kubernetesVersionEndOfSupportDate).",
    enforcementLevel: "advisory",
    configSchema: {
      properties: {
        minDaysOfSupportLeft: {
          type: "integer",
          minimum: 0,
          default: END_OF_SUPPORT_DEFAULTS.minDaysOfSupportLeft,
          description:
            "Days of support that must be left; 0 refuses only versions past their end of support.",
        },
      },
    },
    validateStack: (args, report) => {
      const { minDaysOfSupportLeft } = settings(
        END_OF_SUPPORT_DEFAULTS,
        args.getConfig<Partial<EndOfSupportSettings>>(),
      );
      const today = now().getTime();
      for (const cluster of resourcesOfKind(args.resources, "Kaas")) {
        const p = cluster.props;
        const running = p.currentKubernetesVersion;
        const endText = p.kubernetesVersionEndOfSupportDate;
        if (!isKnownString(running) || !VERSION_PATTERN.test(running) || !isKnownString(endText)) continue;
        // ISO dates only: `Date.parse` also reads free text ("end of 2026" is January 1st).
        const end = ISO_DATE.test(endText) ? Date.parse(endText) : NaN;
        if (Number.isNaN(end)) continue;
        const pending = p.pendingUpgrade;
        const headedFor = [p.kubernetesVersion, isRecord(pending) ? pending.version : null];
        const upgrading = headedFor.some(
          (v) => isKnownString(v) && VERSION_PATTERN.test(v) && compareVersions(v, running) > 0,
        );
        if (upgrading || end - minDaysOfSupportLeft * DAY_MS > today) continue;
        const who = `${named("Kaas", cluster.name)} kubernetesVersionEndOfSupportDate`;
        const version = `Kubernetes ${running}, which the cluster runs (currentKubernetesVersion),`;
        const endDay = day(new Date(end));
        report(
          end <= today
            ? `${who}: ${version} reached its end of support on ${endDay}; raise kubernetesVersion`
            : `${who}: ${version} reaches its end of support on ${endDay}, within ${minDaysOfSupportLeft} days (minDaysOfSupportLeft); raise kubernetesVersion`,
          cluster.urn,
        );
      }
    },
  });
}
