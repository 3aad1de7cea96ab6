/** Argument sets of the end-to-end programs: the world's valid resources (tests/support/world.ts), declared. */
import {
  DATA_VOLUME,
  NODE_CIDR,
  SYSTEM_POOL,
  WORKER_POOL,
  attachmentInputs,
  backupInputs,
  kaasInputs,
  registryInputs,
} from "../../support/world";
import type { Declared } from "./suite";

export { DATA_VOLUME, SYSTEM_POOL, WORKER_POOL };

/** A cluster with two pools; `overrides` replace top-level arguments. */
export const cluster = (overrides: Record<string, unknown> = {}, name = "cluster"): Declared => ({
  kind: "Kaas",
  name,
  args: kaasInputs(`e2e-${name}`, { nodeCidr: { ...NODE_CIDR, name: `${name}-nodes` }, ...overrides }),
});

/** A backup of the cluster declared as `clusterName`. */
export const backup = (overrides: Record<string, unknown> = {}, clusterName = "cluster"): Declared => ({
  kind: "KaasBackup",
  name: "nightly",
  args: backupInputs({ $ref: `${clusterName}.kaasId` }, overrides),
});

/** A registry. */
export const registry = (overrides: Record<string, unknown> = {}): Declared => ({
  kind: "Registry",
  name: "images",
  args: registryInputs("e2e-images", overrides),
});

/** A volume attachment to `nodeId` of the system pool of the cluster declared as `clusterName`. */
export const attachment = (
  nodeId: string,
  overrides: Record<string, unknown> = {},
  clusterName = "cluster",
): Declared => ({
  kind: "VolumeAttachment",
  name: "data",
  args: attachmentInputs({ $ref: `${clusterName}.kaasId` }, nodeId, overrides),
});
