/**
 * Data sources: plain async functions that read the service with the same configuration as the
 * resources (stack config `vendor:*`, then `VENDOR_*`). They run in the Pulumi program, not in the provider.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ListQuery } from "../rest/client";
import { VendorContainerClient } from "../rest/client";
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

let shared: { key: string; client: VendorContainerClient } | undefined;

function api(options: FunctionOptions = {}): { client: VendorContainerClient; settings: VendorSettings } {
  const overrides = (options.settings ?? {}) as Record<string, unknown>;
  const nameOf = Object.fromEntries(Object.entries(SETTING_SOURCES).map(([name, [key]]) => [key, name]));
  const settings = resolveSettings((key) => {
    const override = overrides[nameOf[key]];
    // `runtime.getConfig` reads the stack configuration without the warning `Config.get` prints for secrets.
    return override !== undefined ? String(override) : pulumi.runtime.getConfig(key);
  });
  const key = JSON.stringify(settings);
  if (shared?.key !== key) shared = { key, client: new VendorContainerClient(settings) };
  return { client: shared.client, settings };
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
  name: string | null;
  location: string | null;
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
export async function getKaas(
  args: { kaasId: string; projectId?: string },
  options?: FunctionOptions,
): Promise<KaasInfo> {
  const { client, settings } = api(options);
  return kaasInfo(await client.getKaas(project(args.projectId, settings), args.kaasId));
}

/** Lists clusters across all pages. `filter` uses the service grammar, e.g. `metadata.name:eq("prod")`. */
export async function listKaas(
  args: { projectId?: string } & Pick<ListQuery, "filter" | "sort" | "projection"> = {},
  options?: FunctionOptions,
): Promise<KaasInfo[]> {
  const { client, settings } = api(options);
  const { projectId, ...query } = args;
  return (await collect(client.iterateKaas(project(projectId, settings), query))).map(kaasInfo);
}

/**
 * Downloads a cluster's kubeconfig. Wrap the result in `pulumi.secret(...)` before exporting it: a plain
 * function's result is not secret by itself.
 */
export async function getKubeconfig(
  args: { kaasId: string; projectId?: string },
  options?: FunctionOptions,
): Promise<string> {
  const { client, settings } = api(options);
  return client.downloadKubeconfig(project(args.projectId, settings), args.kaasId);
}

/** A backup as the functions describe it. */
export type BackupInfo = KaasBackupComputed & {
  name: string | null;
  billingPeriod: string | null;
  type: string | null;
  retentionDays: number | null;
};

/** Lists the backups of a cluster across all pages. */
export async function listBackups(
  args: { kaasId: string; projectId?: string } & Pick<ListQuery, "filter" | "sort" | "projection">,
  options?: FunctionOptions,
): Promise<BackupInfo[]> {
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

/** A registry as the functions describe it. */
export type RegistryInfo = RegistryComputed & { name: string | null; adminUsername: string | null };

function registryInfo(response: Parameters<typeof registryComputed>[0]): RegistryInfo {
  return {
    ...registryComputed(response, null),
    name: response.metadata.name ?? null,
    adminUsername: response.properties.adminUser?.username ?? null,
  };
}

/** Reads one registry. Throws when it does not exist. `engineVersion` is null: use `listRegistries` for it. */
export async function getRegistry(
  args: { registryId: string; projectId?: string },
  options?: FunctionOptions,
): Promise<RegistryInfo> {
  const { client, settings } = api(options);
  return registryInfo(await client.getRegistry(project(args.projectId, settings), args.registryId));
}

/** Lists registries across all pages; with `loadEngineVersion`, each carries its engine version. */
export async function listRegistries(
  args: { projectId?: string; loadEngineVersion?: boolean } & Pick<
    ListQuery,
    "filter" | "sort" | "projection"
  > = {},
  options?: FunctionOptions,
): Promise<RegistryInfo[]> {
  const { client, settings } = api(options);
  const { projectId, ...query } = args;
  return (await collect(client.iterateRegistries(project(projectId, settings), query))).map(registryInfo);
}
