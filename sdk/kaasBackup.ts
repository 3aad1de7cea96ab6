import * as pulumi from "@pulumi/pulumi";
import {
  BACKUP_COMPUTED_KEYS,
  KAAS_BACKUP_ARGUMENTS,
  type KaasBackupComputed,
  type KaasBackupInputs,
} from "../provider/kaasBackup/types";
import { backupComputed } from "../provider/kaasBackup/mapping";
import type { BackupResponse } from "../schemas";
import type { Projected } from "../schemas/projection";
import { lookupArgs, TaggedKindResource, type TaggedKindSpec } from "./resource";
import type { ResourceArgs, ResourceOutputs } from "./inputs";
import {
  listEvery,
  outputOf,
  type FunctionInputs,
  type FunctionOptions,
  type ListArgs,
  type NotProjecting,
  type Projecting,
} from "./dataSource";
import shell from "./shells/KaasBackup";

/** Arguments of a {@link KaasBackup}; each is documented on {@link KaasBackupInputs}. */
export type KaasBackupArgs = ResourceArgs<KaasBackupInputs>;

/** Where {@link KaasBackup.get} finds a backup. */
export interface KaasBackupLookup {
  /** Id of the cluster the backup belongs to. */
  kaasId: pulumi.Input<string>;
  /** Project of the cluster; default `vendor:projectId` (or `VENDOR_PROJECT_ID`). */
  projectId?: pulumi.Input<string>;
}

/** What the class registers (sdk/resource.ts). */
const SPEC: TaggedKindSpec<KaasBackupArgs> = {
  kind: "KaasBackup",
  shell,
  arguments: KAAS_BACKUP_ARGUMENTS,
  computed: BACKUP_COMPUTED_KEYS,
  lookup: (args) => ({ projectId: args?.projectId, kaasId: args?.kaasId }),
};

/**
 * The outputs of a {@link KaasBackup} besides its id and project: every computed value
 * ({@link KaasBackupComputed}) and every argument as declared ({@link KaasBackupInputs}).
 */
// The class's outputs are these members: declared once, with their documentation, in the provider's types.
// The merge adds no member the class must initialise: the engine fills each one in.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface KaasBackup
  extends
    ResourceOutputs<Omit<KaasBackupComputed, "backupId">>,
    ResourceOutputs<Omit<KaasBackupInputs, "projectId" | "adoptId" | "adoptFromScope">> {}

/**
 * A backup of a {@link Kaas} cluster. `billingPeriod`, `name` and `tags` update in place; `type`,
 * `retentionDays`, `kaasId`, `location` and `projectId` replace. Deleting the cluster first does not leave
 * the stack stuck: a backup already gone with its cluster deletes as a success.
 *
 * @example
 * ```ts
 * const nightly = new KaasBackup("nightly", {
 *   kaasId: cluster.kaasId, name: "nightly", location: "ITBG-Bergamo", retentionDays: 7, billingPeriod: "Month",
 * });
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- merges the interface above
export class KaasBackup extends TaggedKindResource<KaasBackupArgs> {
  /** Identifier of the backup in the service: the resource's id. */
  declare readonly backupId: pulumi.Output<string>;
  /** Project of the cluster: `projectId`, or the configured default. */
  declare readonly projectId: pulumi.Output<string>;

  /**
   * @param name The unique name of the resource in the stack.
   * @param args The backup's arguments. Its `timeouts` default to `"20m"` for create, update and delete.
   * @param opts Resource options. `customTimeouts` set the deadlines of `timeouts` that the argument leaves
   *   out (a deadline set by both to different durations is refused); `replaceOnChanges` names arguments
   *   whose change replaces the backup (or `"*"`); `import` is refused, since `adoptId` takes an existing
   *   backup over. With `id`, the backup is read, as {@link KaasBackup.get} does (then `args`
   *   needs only `kaasId`, and `projectId` when it is not the configured one).
   */
  constructor(name: string, args: KaasBackupArgs, opts?: pulumi.CustomResourceOptions) {
    super(SPEC, name, args, opts);
  }
  /**
   * Reads an existing backup as a read-only resource of the stack: the stack never updates or deletes it, and
   * each `pulumi up` reads it again. A backup belongs to a cluster, and the service finds it only through
   * that cluster, so `lookup` names the cluster. Its outputs are the backup as the service shows it: `name`,
   * `location`, `tags`, `kaasId` and every computed output (`state`, `currentRetentionDays`, ...); the other
   * arguments are undefined. A backup that does not exist fails the run with an error naming the id.
   *
   * @param name The unique name of the resource in the stack.
   * @param id The backup id (`backupId` of the stack that manages it).
   * @param lookup The cluster of the backup (`kaasId`), and its project when not `vendor:projectId`.
   * @param opts Resource options.
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    lookup: KaasBackupLookup,
    opts?: pulumi.CustomResourceOptions,
  ): KaasBackup {
    return new KaasBackup(name, lookupArgs<KaasBackupArgs>(lookup), { ...opts, id });
  }
}

// ---- Functions: read backups (sdk/dataSource.ts) ----

/** Arguments of {@link listBackups}. */
export interface ListBackupsArgs extends ListArgs {
  /** Identifier of the cluster whose backups to list. */
  kaasId: string;
}

/** A backup as the functions describe it. */
export type BackupInfo = KaasBackupComputed & {
  /** Backup name. */
  name: string | null;
  /** Billing period of the backup, e.g. `Month`. */
  billingPeriod: string | null;
  /** Backup type, as the service reports it. */
  type: string | null;
  /** Days the backup is kept. */
  retentionDays: number | null;
};

/** A backup as a list with a `projection` answers it (see {@link ProjectedKaas}). */
export type ProjectedBackup = Projected<KaasBackupObject>;

// The wire object under a name of its own, left out of the reference on purpose (see `KaasObject` in
// sdk/kaas.ts).
/* eslint-disable-next-line @typescript-eslint/no-empty-object-type */
interface KaasBackupObject extends BackupResponse {}

function kaasBackupInfo(b: BackupResponse): BackupInfo {
  return {
    ...backupComputed(b),
    name: b.metadata.name ?? null,
    billingPeriod: b.properties.billingPeriod ?? null,
    type: b.properties.type ?? null,
    retentionDays: b.properties.retentionDays ?? null,
  };
}

/**
 * Lists the backups of a cluster across all pages, each as the service projected it. A backup the client
 * cannot read is left out with a warning naming it.
 */
export function listBackups(
  args: Projecting<ListBackupsArgs>,
  options?: FunctionOptions,
): Promise<ProjectedBackup[]>;
/**
 * Lists the backups of a cluster across all pages. A backup the client cannot read is left out with a
 * warning naming it.
 */
export function listBackups(
  args: NotProjecting<ListBackupsArgs>,
  options?: FunctionOptions,
): Promise<BackupInfo[]>;
/** Lists the backups of a cluster across all pages: projected ones when `args.projection` is set. */
export function listBackups(
  args: ListBackupsArgs,
  options?: FunctionOptions,
): Promise<BackupInfo[] | ProjectedBackup[]>;
export async function listBackups(
  args: ListBackupsArgs,
  options?: FunctionOptions,
): Promise<BackupInfo[] | ProjectedBackup[]> {
  const { kaasId, ...list } = args;
  return listEvery("listBackups", list, options, { kaasId }, kaasBackupInfo);
}

/** {@link listBackups} for Inputs, with a projection. */
export function listBackupsOutput(
  args: Projecting<FunctionInputs<ListBackupsArgs>>,
  options?: FunctionOptions,
): pulumi.Output<ProjectedBackup[]>;
/** {@link listBackups} for Inputs, e.g. `listBackupsOutput({ kaasId: cluster.kaasId })`. */
export function listBackupsOutput(
  args: NotProjecting<FunctionInputs<ListBackupsArgs>>,
  options?: FunctionOptions,
): pulumi.Output<BackupInfo[]>;
/** {@link listBackups} for Inputs: projected backups when `args.projection` is set. */
export function listBackupsOutput(
  args: FunctionInputs<ListBackupsArgs>,
  options?: FunctionOptions,
): pulumi.Output<BackupInfo[] | ProjectedBackup[]>;
export function listBackupsOutput(
  args: FunctionInputs<ListBackupsArgs>,
  options?: FunctionOptions,
): pulumi.Output<BackupInfo[] | ProjectedBackup[]> {
  return outputOf(args, (plain) => listBackups(plain, options));
}
