/** The durations of a backup's operations (spec §4.2), which its lifecycle and its handlers read. */
import type { DurationSpecs, KindDurations } from "../../base/durations";

/** The durations of backups, by the emulator's option name. */
export const BACKUP_DURATIONS = {
  /** Backup `InCreation` -> `Active`. Default 800. */
  backupCreateMs: { defaultMs: 800, phase: "create" },
  /** Backup `Updating` -> `Active`. Default 300. */
  backupUpdateMs: { defaultMs: 300, phase: "update" },
  /** Backup `Deleting` -> `Deleted`. Default 600. */
  backupDeleteMs: { defaultMs: 600, phase: "delete" },
} as const satisfies DurationSpecs;

/** The durations a backup's lifecycle and handlers read. */
export type BackupDurations = KindDurations<typeof BACKUP_DURATIONS>;
