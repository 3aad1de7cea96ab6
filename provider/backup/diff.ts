/** `diff` of a KaasBackup: pure, driven by its table. */
import { diffByTable, type DiffResult, type DiffTable, type Inputs } from "../common/diff";
import type { KaasBackupInputs } from "./types";

/** Spec §2.6: only `billingPeriod` is updatable among the properties; metadata name and tags too. */
export const BACKUP_DIFF_TABLE: DiffTable<keyof KaasBackupInputs | "creationScope" | "creationToken"> = {
  projectId: "replace",
  kaasId: "replace",
  name: "update",
  location: "replace",
  tags: "update",
  type: "replace",
  retentionDays: "replace",
  billingPeriod: "update",
  timeouts: "update",
  adoptId: "ignore",
  creationScope: "ignore",
  creationToken: "ignore",
};

export function diffBackup(olds: Inputs, news: Inputs): DiffResult {
  return diffByTable(olds, news, BACKUP_DIFF_TABLE);
}
