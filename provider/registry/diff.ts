/** `diff` of a Registry: pure, driven by its table. */
import { diffByTable, type DiffResult, type DiffTable, type Inputs } from "../common/diff";
import type { RegistryInputs } from "./types";

/** api-notes "Registry": the update carries `billingPlan` and `publicIp` only, plus metadata name and tags. */
export const REGISTRY_DIFF_TABLE: DiffTable<keyof RegistryInputs | "creationScope" | "creationToken"> = {
  projectId: "replace",
  name: "update",
  location: "replace",
  tags: "update",
  preset: "replace",
  vpcUri: "replace",
  subnetUri: "replace",
  securityGroupUri: "replace",
  publicIpUri: "update",
  blockStorageUri: "replace",
  size: "replace",
  adminUsername: "replace",
  billingPeriod: "update",
  adminPasswordResetTrigger: "update",
  timeouts: "update",
  adoptId: "ignore",
  creationScope: "ignore",
  creationToken: "ignore",
};

export function diffRegistry(olds: Inputs, news: Inputs): DiffResult {
  return diffByTable(olds, news, REGISTRY_DIFF_TABLE);
}
