/**
 * A cluster against the limits its account declared (`vendor:limits`, provider/common/limits.ts), at
 * `check`, so that a preview refuses what the service would refuse at `up`. The service applies the limits of
 * the cluster's type (spec §8, §2.8 "Cluster type configuration"); the setting states them for every cluster
 * of the stack. Reading of the limits, as the emulator applies them (emulator/rules.ts): the pool limits bound
 * the number of node pools; `minNode`/`maxNode` bound each pool's node count, and an autoscaling pool's
 * `minCount` and `maxCount` (not the cluster's total); the block storage limits bound `maxCumulativeVolumeSize`
 * when it is set; `maxWhitelistCount` bounds the number of `authorizedIpRanges`.
 */
import type { Problems } from "../common/check";
import type { DeclaredLimits, LimitKey } from "../common/limits";

/**
 * What one pair of limits bounds: a value, or the length of a list (`counted` names its items, singular and
 * plural).
 */
export interface DeclaredLimitRule {
  min?: LimitKey;
  max?: LimitKey;
  counted?: readonly [one: string, many: string];
}

/** Every declared limit of a cluster, by what it bounds. */
export const KAAS_DECLARED_LIMITS = {
  /** The number of node pools. */
  nodePools: { min: "minNodePool", max: "maxNodePool", counted: ["node pool", "node pools"] },
  /** `nodes` of each pool, and `minCount` and `maxCount` of an autoscaling one. */
  poolNodes: { min: "minNode", max: "maxNode" },
  /** `maxCumulativeVolumeSize`, in GB, when set. */
  maxCumulativeVolumeSize: { min: "minClusterBlockStorageSize", max: "maxClusterBlockStorageSize" },
  /** The number of `authorizedIpRanges`. */
  authorizedIpRanges: { max: "maxWhitelistCount", counted: ["entry", "entries"] },
} as const satisfies Record<string, DeclaredLimitRule>;

/**
 * Reports `value` (a number, or a list's length when the rule counts) outside the limits `rule` names, with
 * the limit and the setting that declared it: `must be at most 50 (vendor:limits maxNode), got 1000`.
 */
export function withinDeclaredLimits(
  value: number,
  property: string,
  rule: DeclaredLimitRule,
  limits: DeclaredLimits | undefined,
  problems: Problems,
): void {
  if (!limits) return;
  // `must be at most 50`, `must have at most 10 node pools`, `must have at least 1 node pool`.
  const bound = (side: "least" | "most", limit: number) =>
    rule.counted
      ? `must have at ${side} ${limit} ${rule.counted[limit === 1 ? 0 : 1]}`
      : `must be at ${side} ${limit}`;
  const min = rule.min && limits.values[rule.min];
  const max = rule.max && limits.values[rule.max];
  if (min !== undefined && value < min) {
    problems.add(property, `${bound("least", min)} (${limits.setting} ${rule.min}), got ${value}`);
  }
  if (max !== undefined && value > max) {
    problems.add(property, `${bound("most", max)} (${limits.setting} ${rule.max}), got ${value}`);
  }
}

/** Reports what is wrong with the limits setting itself, as failures of the whole resource (no property). */
export function declaredLimitsProblems(limits: DeclaredLimits | undefined, problems: Problems): void {
  for (const problem of limits?.problems ?? []) problems.add("", problem);
}
