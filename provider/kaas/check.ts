/**
 * `check` of a Kaas: validates every argument before any call to the service and reports every problem at
 * once, naming the property; normalises defaults; fixes the creation token used by idempotent create.
 * Pure: the clock and the configured default project come in as arguments.
 */
import {
  Problems,
  metadata,
  projectId,
  bool,
  network,
  futureDate,
  int,
  obj,
  oneOf,
  rejectUnknownProperties,
  str,
  strArray,
  timeouts,
  type CheckFailure,
  type Inputs,
} from "../common/check";
import { CREATION_TAG_PREFIX, creationTokenOf } from "../common/resource";

export { CREATION_TAG_PREFIX };
import { isPrivateCidr, parseCidr, PRIVATE_RANGES } from "../common/cidr";
import { isUnknown } from "../common/unknown";
import { compareVersions, VERSION_PATTERN } from "./version";

/** Every argument a Kaas accepts, plus the internal `creationScope` set by the SDK class. */
export const KAAS_ARGUMENTS = [
  "projectId",
  "name",
  "location",
  "tags",
  "preset",
  "vpcUri",
  "subnetUri",
  "nodeCidr",
  "podCidr",
  "securityGroupName",
  "kubernetesVersion",
  "upgradeDate",
  "nodePools",
  "ha",
  "maxCumulativeVolumeSize",
  "billingPeriod",
  "identity",
  "authorizedIpRanges",
  "enablePrivateCluster",
  "autoscalerProfile",
  "deleteOnCascade",
  "timeouts",
  "adoptId",
  "creationScope",
  "creationToken",
] as const;

/** Arguments whose change replaces the cluster; they also seed the creation token. */
export const KAAS_CREATE_ONLY = [
  "projectId",
  "location",
  "preset",
  "vpcUri",
  "subnetUri",
  "nodeCidr",
  "podCidr",
  "securityGroupName",
  "identity",
  "autoscalerProfile",
] as const;

const POOL_NAME = /^[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?$/;
const POOL_KEYS = ["name", "nodes", "instance", "dataCenter", "autoscaling", "minCount", "maxCount"];

export interface KaasCheckContext {
  /** Current time (epoch ms), for `upgradeDate`. */
  now: number;
  /** `vendor:projectId` / `VENDOR_PROJECT_ID`, used when `projectId` is not set. */
  defaultProjectId?: string;
}

function cidr(value: string, property: string, problems: Problems, privateOnly: boolean): void {
  if (!parseCidr(value)) {
    problems.add(property, `must be an IPv4 CIDR like 10.0.0.0/16, got "${value}"`);
  } else if (privateOnly && !isPrivateCidr(value)) {
    problems.add(property, `must lie within ${PRIVATE_RANGES.join(", ")}, got "${value}"`);
  }
}

function checkNodePools(value: unknown, problems: Problems): void {
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
    if (autoscaling === true) {
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

/** Validates and normalises Kaas inputs. `olds` are the previous inputs (`{}` on create). */
export function checkKaas(
  olds: Inputs,
  news: Inputs,
  ctx: KaasCheckContext,
): { inputs: Inputs; failures: CheckFailure[] } {
  const p = new Problems();
  const inputs: Inputs = { ...news };
  rejectUnknownProperties(news, KAAS_ARGUMENTS, p);

  projectId(inputs, ctx.defaultProjectId, p);
  metadata(news, p);

  // Network: preset versus an existing VPC and subnet.
  network(news, inputs, p);

  const nodeCidr = obj(news.nodeCidr, "nodeCidr", p, { required: true });
  if (nodeCidr) {
    rejectUnknownProperties(nodeCidr, ["address", "name"], p, "nodeCidr.");
    const address = str(nodeCidr.address, "nodeCidr.address", p, { required: true });
    if (address !== undefined) cidr(address, "nodeCidr.address", p, true);
    str(nodeCidr.name, "nodeCidr.name", p, { required: true });
  }
  const podCidr = str(news.podCidr, "podCidr", p);
  if (podCidr !== undefined) cidr(podCidr, "podCidr", p, false);
  str(news.securityGroupName, "securityGroupName", p);

  // Version and scheduled upgrade.
  const version = str(news.kubernetesVersion, "kubernetesVersion", p, {
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
    p.add(
      "kubernetesVersion",
      `cannot go down from ${oldVersion} to ${version}: the service does not downgrade clusters`,
    );
  }
  // The date must be in the future only when it is going to be sent: set or changed, or with a new version.
  const upgradeChanged =
    news.upgradeDate !== olds.upgradeDate || news.kubernetesVersion !== olds.kubernetesVersion;
  if (news.upgradeDate !== undefined && news.upgradeDate !== null) {
    if (upgradeChanged) futureDate(news.upgradeDate, "upgradeDate", p, ctx.now);
    else str(news.upgradeDate, "upgradeDate", p);
  }

  checkNodePools(news.nodePools, p);

  const ha = bool(news.ha, "ha", p);
  if (olds.ha === true && ha !== true && !isUnknown(news.ha)) {
    p.add(
      "ha",
      "cannot be disabled: the service cannot turn high availability off once enabled, and replacing the cluster would destroy it; keep ha: true",
    );
  }
  int(news.maxCumulativeVolumeSize, "maxCumulativeVolumeSize", p, { min: 1 });
  oneOf(news.billingPeriod, "billingPeriod", ["Hour", "Month", "Year"] as const, p);

  const identity = obj(news.identity, "identity", p);
  if (identity) {
    rejectUnknownProperties(identity, ["clientId", "clientSecret"], p, "identity.");
    str(identity.clientId, "identity.clientId", p);
    str(identity.clientSecret, "identity.clientSecret", p);
  }
  strArray(news.authorizedIpRanges, "authorizedIpRanges", p, (range, at) => cidr(range, at, p, false));
  bool(news.enablePrivateCluster, "enablePrivateCluster", p);
  bool(news.deleteOnCascade, "deleteOnCascade", p);
  timeouts(news.timeouts, "timeouts", p);
  str(news.adoptId, "adoptId", p);
  str(news.creationScope, "creationScope", p);

  inputs.creationToken = creationTokenOf(inputs, KAAS_CREATE_ONLY);
  return { inputs, failures: p.failures };
}
