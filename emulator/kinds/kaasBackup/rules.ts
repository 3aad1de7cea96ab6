/**
 * What the service refuses of a backup beyond the shape of its body (the schemas check the shape), reported as
 * field errors in the request's spelling. A backup's location is its cluster's unless the create names one.
 */
import type { BackupInsert } from "../../../schemas/kaasBackup";
import type { WireFieldError } from "../../base/problems";

/** Problems of a backup insert body. */
export function checkBackupInsert(body: BackupInsert): WireFieldError[] {
  const days = body.properties.retentionDays;
  if (days !== undefined && days !== null && days < 1) {
    return [{ fieldName: "properties.retentionDays", errorMessage: `must be at least 1 (got ${days})` }];
  }
  return [];
}
