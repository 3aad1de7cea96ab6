/**
 * Data sources: functions that read the service with the same configuration as the resources (stack config
 * `vendor:*`, then `VENDOR_*`). They run in the Pulumi program, not in the provider. As in every Pulumi
 * package, each comes in two forms: `getKaas` takes plain values and returns a Promise; `getKaasOutput` takes
 * Inputs (an Output of another resource, such as a cluster's `kaasId`) and returns an Output.
 */
import * as pulumi from "@pulumi/pulumi";
import type { VendorContainerClient } from "../rest/client";
import { collect } from "../rest/paginate";
import type { VendorSettings } from "../rest/settings";
import { programClient } from "./programClient";
import { backupComputed } from "../provider/kaasBackup/mapping";
import type { KaasBackupComputed } from "../provider/kaasBackup/types";
import { computedOutputs } from "../provider/kaas/mapping";
import type { KaasComputed } from "../provider/kaas/types";
import { registryComputed } from "../provider/registry/mapping";
import type { RegistryComputed } from "../provider/registry/types";
import type { BackupResponse, KaasResponse, RegistryResponse } from "../schemas";
import type { Projected } from "../schemas/projection";

/** Where a function finds its settings. Tests pass their own; programs use the stack configuration. */
export interface FunctionOptions {
  /** Overrides of the settings resolved from stack config and environment. */
  settings?: Partial<VendorSettings>;
}

/**
 * The arguments of a function's `...Output` form: each property of `T` may be a `pulumi.Input` (a plain
 * value, a Promise or an Output of another resource).
 */
export type FunctionInputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** Arguments of {@link getKaas} and {@link getKubeconfig}. */
export interface GetKaasArgs {
  /** Identifier of the cluster, e.g. a cluster's `kaasId` output. */
  kaasId: string;
  /** Project of the cluster; default `vendor:projectId` (or `VENDOR_PROJECT_ID`). */
  projectId?: string;
}

/** Query of a list function; every page is read. */
export interface ListArgs {
  /** Project to list; default `vendor:projectId` (or `VENDOR_PROJECT_ID`). */
  projectId?: string;
  /** Filter in the service grammar, e.g. `metadata.name:eq("prod")` or `status.state:in("Active","Updating")`. */
  filter?: string;
  /** Sort order in the service grammar, e.g. `-metadata.name` for descending names. */
  sort?: string;
  /**
   * Projection in the service grammar: the fields the service should return, e.g. `status`. Passed as is;
   * with it, the function answers the service's objects as projected ({@link Projected}), not the described
   * shape.
   */
  projection?: string;
}

/** Arguments of {@link listBackups}. */
export interface ListBackupsArgs extends ListArgs {
  /** Identifier of the cluster whose backups to list. */
  kaasId: string;
}

/** Arguments of {@link getRegistry}. */
export interface GetRegistryArgs {
  /** Identifier of the registry, e.g. a registry's `registryId` output. */
  registryId: string;
  /** Project of the registry; default `vendor:projectId` (or `VENDOR_PROJECT_ID`). */
  projectId?: string;
}

/** Arguments of {@link listRegistries}. */
export interface ListRegistriesArgs extends ListArgs {
  /** Whether to read each registry's engine version (one more request per registry); default false. */
  loadEngineVersion?: boolean;
}

/**
 * Where the list functions report an item they skip because the client cannot read it (the wording is the
 * REST client's, `rest/paginate.ts`): the program's warnings, as the engine shows them.
 */
function warnSkipped(fn: string): (line: string) => void {
  return (line) => void pulumi.log.warn(`${fn}: ${line}`);
}

/**
 * Calls `read` once every input is known, with the plain values. While an input is unknown (the preview of a
 * resource not created yet) the result is unknown and the service is not called; a secret input makes the
 * result secret.
 */
function outputOf<A, R>(args: FunctionInputs<A>, read: (plain: A) => Promise<R>): pulumi.Output<R> {
  // `pulumi.output` unwraps every input to its plain value: the arguments `A`.
  return pulumi.output(args).apply((plain) => read(plain as A));
}

/** The settings of a call and the process's shared client for them (sdk/programClient.ts). */
function api(options: FunctionOptions = {}): { client: VendorContainerClient; settings: VendorSettings } {
  return programClient(options.settings);
}

function project(projectId: string | undefined, settings: VendorSettings): string {
  const id = projectId ?? settings.projectId;
  if (!id)
    throw new Error(
      "projectId is required: pass it, or set stack config vendor:projectId or VENDOR_PROJECT_ID",
    );
  return id;
}

/** A cluster as the functions describe it: the computed outputs of {@link Kaas} without the kubeconfig. */
export type KaasInfo = Omit<KaasComputed, "kubeconfig"> & {
  /** Cluster name. */
  name: string | null;
  /** Region of the cluster. */
  location: string | null;
  /** Tags of the cluster. */
  tags: string[];
};

function kaasInfo(response: Parameters<typeof computedOutputs>[0]): KaasInfo {
  const { kubeconfig: _omit, ...computed } = computedOutputs(response, null);
  return {
    ...computed,
    name: response.metadata.name ?? null,
    location: response.metadata.location?.value ?? response.metadata.location?.code ?? null,
    tags: response.metadata.tags ?? [],
  };
}

/** Reads one cluster. Throws when it does not exist. */
export async function getKaas(args: GetKaasArgs, options?: FunctionOptions): Promise<KaasInfo> {
  const { client, settings } = api(options);
  return kaasInfo(
    await client.call("getKaas", { projectId: project(args.projectId, settings), id: args.kaasId }),
  );
}

/**
 * {@link getKaas} for Inputs: reads the cluster once `kaasId` is known, e.g.
 * `getKaasOutput({ kaasId: cluster.kaasId }).currentKubernetesVersion`.
 */
export function getKaasOutput(
  args: FunctionInputs<GetKaasArgs>,
  options?: FunctionOptions,
): pulumi.Output<KaasInfo> {
  return outputOf(args, (plain) => getKaas(plain, options));
}

/**
 * A cluster as a list with a `projection` answers it: the service's object with the fields the projection kept,
 * any of them possibly missing (which ones a projection keeps is not documented).
 */
export type ProjectedKaas = Projected<KaasObject>;

// The wire objects under names of their own: TypeScript resolves the schemas' types (`Static<...>`) to
// anonymous object types, which the API reference would spell out field by field, undocumented. Left out of
// the reference on purpose (typedoc.json `intentionallyNotExported`): they are the service's objects.
/* eslint-disable @typescript-eslint/no-empty-object-type */
interface KaasObject extends KaasResponse {}
interface KaasBackupObject extends BackupResponse {}
interface RegistryObject extends RegistryResponse {}
/* eslint-enable @typescript-eslint/no-empty-object-type */

/** The arguments of a list with a projection. */
export type Projecting<A> = A & {
  /** Projection in the service grammar, passed as is, e.g. `status`. */
  projection: string;
};

/** The arguments of a list without a projection. */
export type NotProjecting<A> = A & {
  /** No projection: the function answers the described shapes. */
  projection?: undefined;
};

/**
 * Lists clusters across all pages, each as the service projected it. A cluster the client cannot read is left
 * out with a warning naming it.
 */
export function listKaas(args: Projecting<ListArgs>, options?: FunctionOptions): Promise<ProjectedKaas[]>;
/**
 * Lists clusters across all pages. `filter` uses the service grammar, e.g. `metadata.name:eq("prod")`. A
 * cluster the client cannot read (say, a null `metadata.id`) is left out with a warning naming it.
 */
export function listKaas(args?: NotProjecting<ListArgs>, options?: FunctionOptions): Promise<KaasInfo[]>;
/** Lists clusters across all pages: projected ones when `args.projection` is set. */
export function listKaas(args?: ListArgs, options?: FunctionOptions): Promise<KaasInfo[] | ProjectedKaas[]>;
export async function listKaas(
  args: ListArgs = {},
  options?: FunctionOptions,
): Promise<KaasInfo[] | ProjectedKaas[]> {
  const { client, settings } = api(options);
  const { projectId, projection, ...query } = args;
  const params = { projectId: project(projectId, settings) };
  const onUnreadable = warnSkipped("listKaas");
  if (typeof projection === "string")
    return collect(client.iterate("listKaas", params, { ...query, projection, onUnreadable }));
  return (await collect(client.iterate("listKaas", params, { ...query, onUnreadable }))).map(kaasInfo);
}

/** {@link listKaas} for Inputs, with a projection. */
export function listKaasOutput(
  args: Projecting<FunctionInputs<ListArgs>>,
  options?: FunctionOptions,
): pulumi.Output<ProjectedKaas[]>;
/** {@link listKaas} for Inputs. */
export function listKaasOutput(
  args?: NotProjecting<FunctionInputs<ListArgs>>,
  options?: FunctionOptions,
): pulumi.Output<KaasInfo[]>;
/** {@link listKaas} for Inputs: projected clusters when `args.projection` is set. */
export function listKaasOutput(
  args?: FunctionInputs<ListArgs>,
  options?: FunctionOptions,
): pulumi.Output<KaasInfo[] | ProjectedKaas[]>;
export function listKaasOutput(
  args: FunctionInputs<ListArgs> = {},
  options?: FunctionOptions,
): pulumi.Output<KaasInfo[] | ProjectedKaas[]> {
  return outputOf(args, (plain) => listKaas(plain, options));
}

/**
 * Downloads a cluster's kubeconfig. Wrap the result in `pulumi.secret(...)` before exporting it: a plain
 * function's result is not secret by itself. {@link getKubeconfigOutput} returns it as a secret.
 */
export async function getKubeconfig(args: GetKaasArgs, options?: FunctionOptions): Promise<string> {
  const { client, settings } = api(options);
  return client.downloadKubeconfig(project(args.projectId, settings), args.kaasId);
}

/** {@link getKubeconfig} for Inputs. The result is always a secret. */
export function getKubeconfigOutput(
  args: FunctionInputs<GetKaasArgs>,
  options?: FunctionOptions,
): pulumi.Output<string> {
  return pulumi.secret(outputOf(args, (plain) => getKubeconfig(plain, options)));
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
  const { client, settings } = api(options);
  const { projectId, kaasId, projection, ...query } = args;
  const params = { projectId: project(projectId, settings), kaasId };
  const onUnreadable = warnSkipped("listBackups");
  if (typeof projection === "string")
    return collect(client.iterate("listBackups", params, { ...query, projection, onUnreadable }));
  return (await collect(client.iterate("listBackups", params, { ...query, onUnreadable }))).map(
    kaasBackupInfo,
  );
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

/** A registry as the functions describe it. */
export type RegistryInfo = RegistryComputed & {
  /** Registry name. */
  name: string | null;
  /** User name of the registry's administrator. */
  adminUsername: string | null;
};

function registryInfo(response: Parameters<typeof registryComputed>[0]): RegistryInfo {
  return {
    ...registryComputed(response, null),
    name: response.metadata.name ?? null,
    adminUsername: response.properties.adminUser?.username ?? null,
  };
}

/** Reads one registry. Throws when it does not exist. `engineVersion` is null: use `listRegistries` for it. */
export async function getRegistry(args: GetRegistryArgs, options?: FunctionOptions): Promise<RegistryInfo> {
  const { client, settings } = api(options);
  return registryInfo(
    await client.call("getRegistry", { projectId: project(args.projectId, settings), id: args.registryId }),
  );
}

/** {@link getRegistry} for Inputs, e.g. `getRegistryOutput({ registryId: registry.registryId })`. */
export function getRegistryOutput(
  args: FunctionInputs<GetRegistryArgs>,
  options?: FunctionOptions,
): pulumi.Output<RegistryInfo> {
  return outputOf(args, (plain) => getRegistry(plain, options));
}

/** A registry as a list with a `projection` answers it (see {@link ProjectedKaas}). */
export type ProjectedRegistry = Projected<RegistryObject>;

/**
 * Lists registries across all pages, each as the service projected it. A registry the client cannot read is
 * left out with a warning naming it.
 */
export function listRegistries(
  args: Projecting<ListRegistriesArgs>,
  options?: FunctionOptions,
): Promise<ProjectedRegistry[]>;
/**
 * Lists registries across all pages; with `loadEngineVersion`, each carries its engine version. A registry
 * the client cannot read is left out with a warning naming it.
 */
export function listRegistries(
  args?: NotProjecting<ListRegistriesArgs>,
  options?: FunctionOptions,
): Promise<RegistryInfo[]>;
/** Lists registries across all pages: projected ones when `args.projection` is set. */
export function listRegistries(
  args?: ListRegistriesArgs,
  options?: FunctionOptions,
): Promise<RegistryInfo[] | ProjectedRegistry[]>;
export async function listRegistries(
  args: ListRegistriesArgs = {},
  options?: FunctionOptions,
): Promise<RegistryInfo[] | ProjectedRegistry[]> {
  const { client, settings } = api(options);
  const { projectId, projection, ...query } = args;
  const params = { projectId: project(projectId, settings) };
  const onUnreadable = warnSkipped("listRegistries");
  if (typeof projection === "string")
    return collect(client.iterate("listRegistries", params, { ...query, projection, onUnreadable }));
  return (await collect(client.iterate("listRegistries", params, { ...query, onUnreadable }))).map(
    registryInfo,
  );
}

/** {@link listRegistries} for Inputs, with a projection. */
export function listRegistriesOutput(
  args: Projecting<FunctionInputs<ListRegistriesArgs>>,
  options?: FunctionOptions,
): pulumi.Output<ProjectedRegistry[]>;
/** {@link listRegistries} for Inputs. */
export function listRegistriesOutput(
  args?: NotProjecting<FunctionInputs<ListRegistriesArgs>>,
  options?: FunctionOptions,
): pulumi.Output<RegistryInfo[]>;
/** {@link listRegistries} for Inputs: projected registries when `args.projection` is set. */
export function listRegistriesOutput(
  args?: FunctionInputs<ListRegistriesArgs>,
  options?: FunctionOptions,
): pulumi.Output<RegistryInfo[] | ProjectedRegistry[]>;
export function listRegistriesOutput(
  args: FunctionInputs<ListRegistriesArgs> = {},
  options?: FunctionOptions,
): pulumi.Output<RegistryInfo[] | ProjectedRegistry[]> {
  return outputOf(args, (plain) => listRegistries(plain, options));
}
