/**
 * `diff` of a Kaas: pure and table-driven. `olds` are the state (previous inputs and outputs), `news` the
 * checked inputs. Refusals (HA disable, downgrade) throw, so the preview stops before any call.
 */
import {
  diffByTable,
  sameValue,
  withUpdates,
  type DiffResult,
  type DiffTable,
  type Inputs,
} from "../common/diff";
import { containsUnknown, isUnknown } from "../common/unknown";
import type { KaasInputs, NodePoolArgs } from "./types";
import { compareVersions, VERSION_PATTERN } from "./version";

type KaasArgument = keyof KaasInputs | "creationScope" | "creationToken";

/**
 * The effect of changing each argument. `ignore` rows are either bookkeeping (`adoptId`, `creationScope`,
 * `creationToken`) or compared by the bespoke rules below (`ha`, `kubernetesVersion`, `nodePools`).
 * Create-only fields of the service (api-notes "KaaS": preset, vpc, subnet, nodeCidr, podCidr,
 * securityGroup, identity, autoscalerProfile, and location) replace.
 */
export const KAAS_DIFF_TABLE: DiffTable<KaasArgument> = {
  projectId: "replace",
  name: "update",
  location: "replace",
  tags: "update",
  preset: "replace",
  vpcUri: "replace",
  subnetUri: "replace",
  nodeCidr: "replace",
  podCidr: "replace",
  securityGroupName: "replace",
  kubernetesVersion: "ignore",
  upgradeDate: "update",
  nodePools: "ignore",
  ha: "ignore",
  maxCumulativeVolumeSize: "update",
  billingPeriod: "update",
  identity: "replace",
  authorizedIpRanges: "update",
  enablePrivateCluster: "update",
  autoscalerProfile: "replace",
  deleteOnCascade: "update",
  timeouts: "update",
  adoptId: "ignore",
  creationScope: "ignore",
  creationToken: "ignore",
};

/** Thrown by `diff` for a change the service cannot make and that must not become a replacement. */
export class RefusedChange extends Error {
  constructor(
    readonly property: string,
    reason: string,
  ) {
    super(`${property}: ${reason}`);
    this.name = "RefusedChange";
  }
}

/** A pool with defaults applied, for order-insensitive comparison by name. */
function normalisePool(pool: NodePoolArgs): Record<string, unknown> {
  const autoscaling = pool.autoscaling === true;
  return {
    name: pool.name,
    nodes: pool.nodes,
    instance: pool.instance,
    dataCenter: pool.dataCenter,
    autoscaling,
    minCount: autoscaling ? (pool.minCount ?? null) : null,
    maxCount: autoscaling ? (pool.maxCount ?? null) : null,
  };
}

/** Pools keyed by name with defaults applied. */
export function poolsByName(pools: unknown): Map<string, Record<string, unknown>> {
  const map = new Map<string, Record<string, unknown>>();
  if (!Array.isArray(pools)) return map;
  for (const pool of pools as NodePoolArgs[]) map.set(pool.name, normalisePool(pool));
  return map;
}

/** True when the two pool lists differ, ignoring order. */
export function nodePoolsChanged(olds: unknown, news: unknown): boolean {
  if (containsUnknown(news)) return true;
  const a = poolsByName(olds);
  const b = poolsByName(news);
  if (a.size !== b.size) return true;
  for (const [name, pool] of b) {
    if (!a.has(name) || !sameValue(a.get(name), pool)) return true;
  }
  return false;
}

/** Diffs a Kaas. */
export function diffKaas(olds: Inputs, news: Inputs): DiffResult {
  const result = diffByTable(olds, news, KAAS_DIFF_TABLE);
  const extra: string[] = [];

  // HA: false -> true is in place; true -> false is refused (spec §8: HA cannot be turned off).
  if (isUnknown(news.ha)) extra.push("ha");
  else if ((olds.ha === true) !== (news.ha === true)) {
    if (olds.ha === true) {
      throw new RefusedChange(
        "ha",
        "cannot be disabled: the service cannot turn high availability off once enabled, and replacing the cluster would destroy it; keep ha: true",
      );
    }
    extra.push("ha");
  }

  // Version: compared with the declared version in state; a lower version than the live one is refused.
  const declared = news.kubernetesVersion;
  if (isUnknown(declared)) extra.push("kubernetesVersion");
  else if (typeof declared === "string" && declared !== olds.kubernetesVersion) {
    const live =
      typeof olds.currentKubernetesVersion === "string"
        ? olds.currentKubernetesVersion
        : olds.kubernetesVersion;
    if (typeof live === "string" && VERSION_PATTERN.test(live) && compareVersions(declared, live) < 0) {
      throw new RefusedChange(
        "kubernetesVersion",
        `cannot go down from ${live} to ${declared}: the service does not downgrade clusters`,
      );
    }
    // A declared version the platform already reached on its own needs no call, but the new input is recorded.
    extra.push("kubernetesVersion");
  }

  if (nodePoolsChanged(olds.nodePools, news.nodePools)) extra.push("nodePools");
  return withUpdates(result, extra);
}
