/** Argument sets of the end-to-end programs: valid resources to start from. */
import { LOCATION, type Declared } from "./suite";

/** A volume to attach (any block storage URI: the emulator does not check that it exists). */
export const DATA_VOLUME = "/projects/e2e-project/providers/Vendor.Storage/blockStorages/data-1";

export const SYSTEM_POOL = { name: "system", nodes: 2, instance: "K4A8", dataCenter: "ITBG-1" };
export const WORKER_POOL = {
  name: "workers",
  nodes: 2,
  instance: "K8A16",
  dataCenter: "ITBG-2",
  autoscaling: true,
  minCount: 1,
  maxCount: 6,
};

/** A cluster with two pools; `overrides` replace top-level arguments. */
export function cluster(overrides: Record<string, unknown> = {}, name = "cluster"): Declared {
  return {
    kind: "Kaas",
    name,
    args: {
      name: `e2e-${name}`,
      location: LOCATION,
      kubernetesVersion: "1.32.5",
      nodeCidr: { address: "10.20.0.0/16", name: `${name}-nodes` },
      nodePools: [SYSTEM_POOL, WORKER_POOL],
      authorizedIpRanges: ["192.168.10.0/24"],
      ...overrides,
    },
  };
}

/** A backup of the cluster declared as `clusterName`. */
export function backup(overrides: Record<string, unknown> = {}, clusterName = "cluster"): Declared {
  return {
    kind: "KaasBackup",
    name: "nightly",
    args: {
      kaasId: { $ref: `${clusterName}.kaasId` },
      name: "nightly",
      location: LOCATION,
      retentionDays: 7,
      billingPeriod: "Month",
      ...overrides,
    },
  };
}

/** A registry. */
export function registry(overrides: Record<string, unknown> = {}): Declared {
  return {
    kind: "Registry",
    name: "images",
    args: {
      name: "e2e-images",
      location: LOCATION,
      adminUsername: "ops",
      size: "Small",
      adminPasswordResetTrigger: "initial",
      ...overrides,
    },
  };
}

/** A volume attachment to `nodeId` of the system pool of the cluster declared as `clusterName`. */
export function attachment(
  nodeId: string,
  overrides: Record<string, unknown> = {},
  clusterName = "cluster",
): Declared {
  return {
    kind: "VolumeAttachment",
    name: "data",
    args: {
      kaasId: { $ref: `${clusterName}.kaasId` },
      nodePoolName: "system",
      nodeId,
      volumeUri: DATA_VOLUME,
      ...overrides,
    },
  };
}
