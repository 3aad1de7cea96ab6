/**
 * The cluster's service rules: what the service refuses of a cluster beyond the shape of its body (the schemas
 * check the shape). Each rule reports a field error naming the field in the request's spelling; all problems are
 * reported at once. The functions are pure: they read the request, the stored record and the configuration.
 * The location rules every kind applies are `base/location.ts`'s.
 */
import type { KaasInsert, KaasUpdate, NodePoolRequest } from "../../../schemas/kaas";
import {
  cidrOverlaps,
  cidrWithin,
  parseCidr,
  parseIPv4,
  PRIVATE_RANGES,
  PRIVATE_RANGE_TEXTS,
} from "../../base/cidr";
import { compareVersions, VERSION_PATTERN } from "../../base/versions";
import { instanceSizeOf, type ClusterTypeLimits, type EmulatorConfigOf } from "../../base/config";
import { checkLocationOnCreate, checkLocationOnUpdate } from "../../base/location";
import type { WireFieldError } from "../../base/problems";
import type { KaasRecord } from "./record";

// ---- Node CIDRs ----

/** The private ranges as a refusal names them: `10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16`. */
const NODE_CIDR_RANGES_TEXT = `${PRIVATE_RANGE_TEXTS.slice(0, -1).join(", ")} or ${PRIVATE_RANGE_TEXTS.at(-1)}`;

/** Problems of a node CIDR address (spec §8). */
export function checkNodeCidr(address: string, fieldName: string): WireFieldError[] {
  const cidr = parseCidr(address);
  if (!cidr) return [{ fieldName, errorMessage: `"${address}" is not a valid CIDR (expected a.b.c.d/n)` }];
  if (cidr.hostBitsSet) {
    return [{ fieldName, errorMessage: `"${address}" is not a network address: host bits are set` }];
  }
  if (!PRIVATE_RANGES.some((range) => cidrWithin(cidr, range))) {
    return [{ fieldName, errorMessage: `must lie within ${NODE_CIDR_RANGES_TEXT}` }];
  }
  return [];
}

// ---- Kubernetes versions ----
//
// Versions are ordered by `compareVersions` (base/versions.ts), which orders
// `major.minor[.patch]` versions only. The configuration admits no other (config.ts `checkConfig`), so a
// stored version always has that form; a requested one is compared only when it has it too.

function checkAdmissibleVersion(
  value: string,
  config: EmulatorConfigOf,
  fieldName: string,
): WireFieldError[] {
  const admissible = config.kubernetesVersions.map((v) => v.value);
  if (admissible.includes(value)) return [];
  return [
    {
      fieldName,
      errorMessage: `"${value}" is not an admissible Kubernetes version (admissible: ${admissible.join(", ")})`,
    },
  ];
}

// ---- Node pools ----

/** Values of one pool as the rules see them, whichever body they come from. */
export interface PoolValues {
  instance: string;
  nodes: number;
  autoscaling: boolean;
  minCount: number | null;
  maxCount: number | null;
}

/** Field names of `PoolValues` in the body being checked. */
export interface PoolFieldNames {
  instance: string;
  nodes: string;
  minCount: string;
  maxCount: string;
}

function between(limits: ClusterTypeLimits, value: number): boolean {
  return (
    (limits.minNode === null || value >= limits.minNode) &&
    (limits.maxNode === null || value <= limits.maxNode)
  );
}

function nodeRangeText(limits: ClusterTypeLimits): string {
  if (limits.minNode !== null && limits.maxNode !== null)
    return `between ${limits.minNode} and ${limits.maxNode}`;
  if (limits.minNode !== null) return `at least ${limits.minNode}`;
  return `at most ${limits.maxNode}`;
}

/**
 * Problems of one pool: known instance size, node count within the cluster type's `minNode..maxNode`, and for
 * autoscaling pools `minCount <= nodes <= maxCount`.
 */
export function checkPoolValues(
  pool: PoolValues,
  limits: ClusterTypeLimits,
  config: EmulatorConfigOf,
  names: PoolFieldNames,
): WireFieldError[] {
  const errors: WireFieldError[] = [];
  if (!instanceSizeOf(config, pool.instance)) {
    errors.push({
      fieldName: names.instance,
      errorMessage: `"${pool.instance}" is not a known instance size`,
    });
  }
  if (!between(limits, pool.nodes)) {
    errors.push({
      fieldName: names.nodes,
      errorMessage: `must be ${nodeRangeText(limits)} (got ${pool.nodes})`,
    });
  }
  if (pool.autoscaling) {
    if (pool.minCount === null) {
      errors.push({ fieldName: names.minCount, errorMessage: "is required when autoscaling is enabled" });
    }
    if (pool.maxCount === null) {
      errors.push({ fieldName: names.maxCount, errorMessage: "is required when autoscaling is enabled" });
    }
    if (pool.minCount !== null && pool.maxCount !== null) {
      if (pool.minCount > pool.maxCount) {
        errors.push({
          fieldName: names.minCount,
          errorMessage: `must not exceed ${names.maxCount} (${pool.maxCount})`,
        });
      } else if (pool.nodes < pool.minCount || pool.nodes > pool.maxCount) {
        errors.push({
          fieldName: names.nodes,
          errorMessage: `must lie between minCount (${pool.minCount}) and maxCount (${pool.maxCount}) when autoscaling is enabled (got ${pool.nodes})`,
        });
      }
      for (const [value, field] of [
        [pool.minCount, names.minCount],
        [pool.maxCount, names.maxCount],
      ] as const) {
        if (!between(limits, value)) {
          errors.push({ fieldName: field, errorMessage: `must be ${nodeRangeText(limits)} (got ${value})` });
        }
      }
    }
  }
  return errors;
}

/** Problems of a full node pool list (insert, or the desired list of an update). */
export function checkNodePoolList(
  pools: NodePoolRequest[],
  limits: ClusterTypeLimits,
  config: EmulatorConfigOf,
): WireFieldError[] {
  const errors: WireFieldError[] = [];
  const count = pools.length;
  if (
    (limits.minNodePool !== null && count < limits.minNodePool) ||
    (limits.maxNodePool !== null && count > limits.maxNodePool)
  ) {
    errors.push({
      fieldName: "properties.nodePools",
      errorMessage: `a cluster needs between ${limits.minNodePool ?? 1} and ${limits.maxNodePool ?? "any number of"} node pools (got ${count})`,
    });
  }
  const seen = new Set<string>();
  pools.forEach((pool, i) => {
    const prefix = `properties.nodePools[${i}]`;
    if (seen.has(pool.name)) {
      errors.push({ fieldName: `${prefix}.name`, errorMessage: `duplicate node pool name "${pool.name}"` });
    }
    seen.add(pool.name);
    errors.push(
      ...checkPoolValues(
        {
          instance: pool.instance,
          nodes: pool.nodes,
          autoscaling: pool.autoscaling === true,
          minCount: pool.minCount ?? null,
          maxCount: pool.maxCount ?? null,
        },
        limits,
        config,
        {
          instance: `${prefix}.instance`,
          nodes: `${prefix}.nodes`,
          minCount: `${prefix}.minCount`,
          maxCount: `${prefix}.maxCount`,
        },
      ),
    );
  });
  return errors;
}

// ---- Other KaaS properties ----

function checkAuthorizedIpRanges(
  ranges: string[] | null | undefined,
  limits: ClusterTypeLimits,
): WireFieldError[] {
  if (!ranges) return [];
  const field = "properties.apiServerAccessProfile.authorizedIpRanges";
  const errors: WireFieldError[] = [];
  if (limits.maxWhitelistCount !== null && ranges.length > limits.maxWhitelistCount) {
    errors.push({
      fieldName: field,
      errorMessage: `at most ${limits.maxWhitelistCount} authorized IP ranges are allowed (maxWhitelistCount; got ${ranges.length})`,
    });
  }
  ranges.forEach((range, i) => {
    if (parseIPv4(range) === undefined && !parseCidr(range)) {
      errors.push({
        fieldName: `${field}[${i}]`,
        errorMessage: `"${range}" is not a valid IPv4 address or CIDR`,
      });
    }
  });
  return errors;
}

function checkStorageLimit(size: number | null | undefined, limits: ClusterTypeLimits): WireFieldError[] {
  if (size === null || size === undefined) return [];
  const min = limits.minClusterBlockStorageSize;
  const max = limits.maxClusterBlockStorageSize;
  if ((min !== null && size < min) || (max !== null && size > max) || size <= 0) {
    return [
      {
        fieldName: "properties.storage.maxCumulativeVolumeSize",
        errorMessage: `must be between ${min ?? 1} and ${max ?? "unlimited"} GB (got ${size})`,
      },
    ];
  }
  return [];
}

/** The limits of the cluster type of a cluster with `ha`. */
export function limitsFor(config: EmulatorConfigOf, ha: boolean): ClusterTypeLimits {
  return config.clusterTypes[ha ? "ha" : "standard"];
}

/** Problems of a cluster insert body. */
export function checkKaasInsert(body: KaasInsert, config: EmulatorConfigOf): WireFieldError[] {
  const p = body.properties;
  const limits = limitsFor(config, p.ha === true);
  const errors: WireFieldError[] = [...checkLocationOnCreate(body.metadata)];
  if (p.preset !== true) {
    // Without preset the VPC and subnet are not created for the cluster (spec §2.2 `preset`).
    if (!p.vpc)
      errors.push({ fieldName: "properties.vpc", errorMessage: "is required unless preset is true" });
    if (!p.subnet)
      errors.push({ fieldName: "properties.subnet", errorMessage: "is required unless preset is true" });
  }
  const nodeCidrErrors = checkNodeCidr(p.nodeCidr.address, "properties.nodeCidr.address");
  errors.push(...nodeCidrErrors);
  if (p.podCidr !== undefined && p.podCidr !== null) {
    const pod = parseCidr(p.podCidr);
    const node = parseCidr(p.nodeCidr.address);
    if (!pod) {
      errors.push({ fieldName: "properties.podCidr", errorMessage: `"${p.podCidr}" is not a valid CIDR` });
    } else if (node && nodeCidrErrors.length === 0 && cidrOverlaps(pod, node)) {
      errors.push({ fieldName: "properties.podCidr", errorMessage: "must not overlap nodeCidr.address" });
    }
  }
  errors.push(
    ...checkAdmissibleVersion(p.kubernetesVersion.value, config, "properties.kubernetesVersion.value"),
  );
  errors.push(...checkNodePoolList(p.nodePools, limits, config));
  errors.push(...checkStorageLimit(p.storage?.maxCumulativeVolumeSize, limits));
  errors.push(...checkAuthorizedIpRanges(p.apiServerAccessProfile?.authorizedIpRanges, limits));
  return errors;
}

/** Total size (GB) of the volumes that count as attached to a cluster. */
export function attachedSizeGb(rec: KaasRecord): number {
  return rec.props.attachments.filter((a) => a.visibleUntil === null).reduce((sum, a) => sum + a.sizeGb, 0);
}

/** Problems of a cluster update body against the stored cluster. */
export function checkKaasUpdate(
  body: KaasUpdate,
  rec: KaasRecord,
  config: EmulatorConfigOf,
): WireFieldError[] {
  const p = body.properties;
  const errors: WireFieldError[] = [...checkLocationOnUpdate(body.metadata, rec.location)];
  // Spec §2.2, §8: "The control plane in HA cannot be disabled after creation."
  if (p.ha === false && rec.props.ha) {
    errors.push({
      fieldName: "properties.ha",
      errorMessage: "high availability cannot be disabled after creation",
    });
  }
  const ha = p.ha ?? rec.props.ha;
  const limits = limitsFor(config, ha);
  if (p.kubernetesVersion) {
    const value = p.kubernetesVersion.value;
    const field = "properties.kubernetesVersion.value";
    const ordered = VERSION_PATTERN.test(value) && VERSION_PATTERN.test(rec.props.kubernetesVersion);
    if (ordered && compareVersions(value, rec.props.kubernetesVersion) < 0) {
      errors.push({
        fieldName: field,
        errorMessage: `cannot downgrade from ${rec.props.kubernetesVersion} to ${value}`,
      });
    } else if (value !== rec.props.kubernetesVersion) {
      errors.push(...checkAdmissibleVersion(value, config, field));
    }
  }
  if (p.nodePools) errors.push(...checkNodePoolList(p.nodePools, limits, config));
  if (p.storage) {
    const size = p.storage.maxCumulativeVolumeSize;
    const storageErrors = checkStorageLimit(size, limits);
    errors.push(...storageErrors);
    const used = attachedSizeGb(rec);
    if (storageErrors.length === 0 && size !== null && size < used) {
      errors.push({
        fieldName: "properties.storage.maxCumulativeVolumeSize",
        errorMessage: `must not be below the ${used} GB of volumes already attached (got ${size})`,
      });
    }
  }
  if (p.apiServerAccessProfile)
    errors.push(...checkAuthorizedIpRanges(p.apiServerAccessProfile.authorizedIpRanges, limits));
  return errors;
}
