/**
 * Data sources: functions that read the service with the same configuration as the resources (stack config
 * `vendor:*`, then `VENDOR_*`). They run in the Pulumi program, not in the provider. As in every Pulumi
 * package, each comes in two forms: `getKaas` takes plain values and returns a Promise; `getKaasOutput` takes
 * Inputs (an Output of another resource, such as a cluster's `kaasId`) and returns an Output.
 */
import * as pulumi from "@pulumi/pulumi";
import type { VendorContainerClient } from "../rest/client";
import { sharedClient } from "../rest/clients";
import { collect } from "../rest/paginate";
import { SETTING_SOURCES, resolveSettings, type VendorSettings } from "../rest/settings";
import { backupComputed } from "../provider/backup/mapping";
import type { KaasBackupComputed } from "../provider/backup/types";
import { computedOutputs } from "../provider/kaas/mapping";
import type { KaasComputed } from "../provider/kaas/types";
import { registryComputed } from "../provider/registry/mapping";
import type { RegistryComputed } from "../provider/registry/types";

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
  /** Projection in the service grammar: the fields the service should return. */
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
 * Calls `read` once every input is known, with the plain values. While an input is unknown (the preview of a
 * resource not created yet) the result is unknown and the service is not called; a secret input makes the
 * result secret.
 */
function outputOf<A, R>(args: FunctionInputs<A>, read: (plain: A) => Promise<R>): pulumi.Output<R> {
  return pulumi.output(args).apply((plain) => read(plain as A));
}

/**
 * The settings of a call (rest/settings.ts, the rule the providers follow too) and the process's shared
 * client for them (rest/clients.ts), loaded on the first call so importing the SDK stays light.
 */
function api(options: FunctionOptions = {}): { client: VendorContainerClient; settings: VendorSettings } {
  const overrides = (options.settings ?? {}) as Record<string, unknown>;
  const nameOf = Object.fromEntries(Object.entries(SETTING_SOURCES).map(([name, [key]]) => [key, name]));
  const settings = resolveSettings((key) => {
    const override = overrides[nameOf[key]];
    // `runtime.getConfig` reads the stack configuration without the warning `Config.get` prints for secrets.
    return override !== undefined ? String(override) : pulumi.runtime.getConfig(key);
  });
  return { client: sharedClient(settings), settings };
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
  return kaasInfo(await client.getKaas(project(args.projectId, settings), args.kaasId));
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

/** Lists clusters across all pages. `filter` uses the service grammar, e.g. `metadata.name:eq("prod")`. */
export async function listKaas(args: ListArgs = {}, options?: FunctionOptions): Promise<KaasInfo[]> {
  const { client, settings } = api(options);
  const { projectId, ...query } = args;
  return (await collect(client.iterateKaas(project(projectId, settings), query))).map(kaasInfo);
}

/** {@link listKaas} for Inputs. */
export function listKaasOutput(
  args: FunctionInputs<ListArgs> = {},
  options?: FunctionOptions,
): pulumi.Output<KaasInfo[]> {
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

/** Lists the backups of a cluster across all pages. */
export async function listBackups(args: ListBackupsArgs, options?: FunctionOptions): Promise<BackupInfo[]> {
  const { client, settings } = api(options);
  const { projectId, kaasId, ...query } = args;
  const backups = await collect(client.iterateBackups(project(projectId, settings), kaasId, query));
  return backups.map((b) => ({
    ...backupComputed(b),
    name: b.metadata.name ?? null,
    billingPeriod: b.properties.billingPeriod ?? null,
    type: b.properties.type ?? null,
    retentionDays: b.properties.retentionDays ?? null,
  }));
}

/** {@link listBackups} for Inputs, e.g. `listBackupsOutput({ kaasId: cluster.kaasId })`. */
export function listBackupsOutput(
  args: FunctionInputs<ListBackupsArgs>,
  options?: FunctionOptions,
): pulumi.Output<BackupInfo[]> {
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
  return registryInfo(await client.getRegistry(project(args.projectId, settings), args.registryId));
}

/** {@link getRegistry} for Inputs, e.g. `getRegistryOutput({ registryId: registry.registryId })`. */
export function getRegistryOutput(
  args: FunctionInputs<GetRegistryArgs>,
  options?: FunctionOptions,
): pulumi.Output<RegistryInfo> {
  return outputOf(args, (plain) => getRegistry(plain, options));
}

/** Lists registries across all pages; with `loadEngineVersion`, each carries its engine version. */
export async function listRegistries(
  args: ListRegistriesArgs = {},
  options?: FunctionOptions,
): Promise<RegistryInfo[]> {
  const { client, settings } = api(options);
  const { projectId, ...query } = args;
  return (await collect(client.iterateRegistries(project(projectId, settings), query))).map(registryInfo);
}

/** {@link listRegistries} for Inputs. */
export function listRegistriesOutput(
  args: FunctionInputs<ListRegistriesArgs> = {},
  options?: FunctionOptions,
): pulumi.Output<RegistryInfo[]> {
  return outputOf(args, (plain) => listRegistries(plain, options));
}
