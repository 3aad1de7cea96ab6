/** The stored backup of a cluster (spec §4.2). */
import type { BaseRecord } from "../../base/record";

/** A backup of one cluster. */
export interface BackupRecord extends BaseRecord {
  kind: "backup";
  kaasId: string;
  props: { billingPeriod: string | null; type: string | null; retentionDays: number | null };
}
