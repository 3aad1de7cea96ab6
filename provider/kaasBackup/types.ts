/**
 * The arguments and outputs of a KaasBackup, as plain values (the SDK class wraps them). The argument schema
 * is the one description of each argument: its documentation, type, what changing it does and its check.
 */
import {
  CREATED_OBJECT_ARGUMENTS,
  OBJECT_LOCATION,
  OBJECT_NAME,
  OBJECT_TAGS,
  PROJECT_ID,
  anInteger,
  optional,
  text,
  type ArgumentsOf,
  type Checked,
} from "../common/arguments";
import { keysOf } from "../common/typed";
import type { KindProperties } from "../common/properties";

/**
 * Every argument of a KaasBackup. Spec §2.6: only `billingPeriod` is updatable among the properties; metadata
 * name and tags too.
 */
export const KAAS_BACKUP_ARGUMENTS = {
  /** Project of the cluster. Default: stack config `vendor:projectId` or `VENDOR_PROJECT_ID`. Replaces. */
  projectId: PROJECT_ID,
  /** Id of the cluster to back up, usually `cluster.kaasId`. Replaces. */
  kaasId: text("replace", { required: true }),
  /** Backup name. Updates in place. */
  name: OBJECT_NAME,
  /** Region, the cluster's. Replaces. */
  location: OBJECT_LOCATION,
  /** Tags of the backup (as an output: without the owner tag the package adds). Update in place. */
  tags: OBJECT_TAGS,
  /** Backup type; the service judges the value. Default: the service's. Replaces. */
  type: text("replace"),
  /** Days the backup is kept. Default: the service's. Replaces. */
  retentionDays: optional<number>({ change: "replace", check: anInteger({ min: 1, max: 3650 }) }),
  /** Billing period, e.g. `Month`. The only property the service updates in place (spec §2.6). */
  billingPeriod: text("update"),
  ...CREATED_OBJECT_ARGUMENTS,
};

/**
 * Arguments of a KaasBackup, from its schema (`KAAS_BACKUP_ARGUMENTS`).
 *
 * @interface
 */
export type KaasBackupInputs = ArgumentsOf<typeof KAAS_BACKUP_ARGUMENTS>;

/** Arguments of a KaasBackup as `check` returns them: the default project filled in, the creation token computed. */
export type CheckedKaasBackupInputs = Checked<KaasBackupInputs>;

/** The cluster a backup belongs to. */
export interface ClusterReference {
  /** Cluster id. */
  id: string | null;
  /** Cluster URI. */
  uri: string | null;
  /** Cluster name. */
  name: string | null;
}

/** Outputs of a KaasBackup beyond its arguments. */
export interface KaasBackupComputed {
  /** Identifier of the backup in the service. */
  backupId: string;
  /** URI of the backup. */
  uri: string | null;
  /** Service state, e.g. `Active`. */
  state: string | null;
  /** Phase reported by the service. */
  phase: string | null;
  /** Size of the backup in bytes, once known. */
  sizeBytes: number | null;
  /** When the backup expires. */
  expiresAt: string | null;
  /** The cluster the backup belongs to. */
  cluster: ClusterReference | null;
  /** Creation date of the backup. */
  creationDate: string | null;
  /** Backup type as the service reports it: `type`, or the service's default when it was not set. */
  currentType: string | null;
  /** Days the backup is kept, as the service reports it: `retentionDays`, or the service's default. */
  currentRetentionDays: number | null;
}

/**
 * Every computed output, once: keyed by `KaasBackupComputed`, so a forgotten output does not compile. A value
 * (not a type) that the SDK class reads too, to seed the same names.
 */
const BACKUP_COMPUTED: Record<keyof KaasBackupComputed, true> = {
  backupId: true,
  uri: true,
  state: true,
  phase: true,
  sizeBytes: true,
  expiresAt: true,
  cluster: true,
  creationDate: true,
  currentType: true,
  currentRetentionDays: true,
};

/** The names of the computed outputs of a KaasBackup; everything else in state is an argument. */
export const BACKUP_COMPUTED_KEYS = keysOf(BACKUP_COMPUTED);

/** What a backup is made of: its arguments and computed outputs, and the outputs no update changes. */
export const KAAS_BACKUP_PROPERTIES: KindProperties<typeof KAAS_BACKUP_ARGUMENTS, KaasBackupComputed> = {
  arguments: KAAS_BACKUP_ARGUMENTS,
  computed: BACKUP_COMPUTED_KEYS,
  secrets: [],
  stable: ["backupId", "uri", "creationDate"],
};
