/**
 * The plugin by kind: what the provider plugin serves of every kind of `KIND_NAMES` (schemas/kinds.ts), so a
 * kind left out does not compile. Each kind's provider, argument schema and computed outputs are the dynamic
 * path's own (provider/): the plugin adds the type token and what it marks secret.
 */
import { KAAS_ARGUMENTS, KAAS_COMPUTED_KEYS, KAAS_SECRETS, type KaasComputed } from "../provider/kaas/types";
import {
  BACKUP_COMPUTED_KEYS,
  KAAS_BACKUP_ARGUMENTS,
  type KaasBackupComputed,
} from "../provider/kaasBackup/types";
import {
  REGISTRY_ARGUMENTS,
  REGISTRY_COMPUTED_KEYS,
  type RegistryComputed,
} from "../provider/registry/types";
import {
  VOLUME_ATTACHMENT_ARGUMENTS,
  VOLUME_ATTACHMENT_COMPUTED_KEYS,
  type VolumeAttachmentComputed,
} from "../provider/volumeAttachment/types";
import type { ArgumentSchema } from "../provider/common/arguments";
import { KIND_NAMES, type KindName } from "../schemas/kinds";
import { MODULE, pluginTypeToken } from "../provider/kinds";

/** The plugin's package name: its type tokens, its config keys (`vendor-container:baseUrl`) and its executable. */
export const PACKAGE = MODULE;

/** What the plugin serves of one kind, whose computed outputs are `Outputs`. */
export interface PluginKind<Outputs extends object = Record<string, unknown>> {
  /** The kind's argument schema (provider/<kind>/types.ts): the resource's input properties. */
  arguments: ArgumentSchema;
  /** The kind's computed outputs, besides its arguments. */
  computed: readonly string[];
  /** Inputs and outputs always stored as secrets, whatever the program passed. */
  secrets: readonly string[];
  /** Computed outputs no update changes: an update's preview shows them as the state has them. */
  stable: readonly Extract<keyof Outputs, string>[];
}

/** The plugin's registry: an entry for every kind of schemas/kinds.ts, its stable outputs among its outputs. */
export type PluginKindRegistry = { readonly [K in KindName]: PluginKind<PluginOutputs[K]> };

/** Every kind, as the plugin serves it. */
export const PLUGIN_KINDS = {
  Kaas: {
    arguments: KAAS_ARGUMENTS,
    computed: KAAS_COMPUTED_KEYS,
    secrets: KAAS_SECRETS,
    stable: ["kaasId", "uri", "creationDate"],
  },
  KaasBackup: {
    arguments: KAAS_BACKUP_ARGUMENTS,
    computed: BACKUP_COMPUTED_KEYS,
    secrets: [],
    stable: ["backupId", "uri", "creationDate"],
  },
  Registry: {
    arguments: REGISTRY_ARGUMENTS,
    computed: REGISTRY_COMPUTED_KEYS,
    secrets: [],
    stable: ["registryId", "uri"],
  },
  VolumeAttachment: {
    arguments: VOLUME_ATTACHMENT_ARGUMENTS,
    computed: VOLUME_ATTACHMENT_COMPUTED_KEYS,
    secrets: [],
    stable: [],
  },
} as const satisfies PluginKindRegistry;

/** A record of every kind, so that one left out does not compile. */
type EveryKind<T extends Record<KindName, unknown>> = T;

/**
 * The computed outputs of each kind, as types: the package schema states each resource's outputs from these
 * (scripts/package-schema.mjs), and `PLUGIN_KINDS[kind].computed` lists their names at run time.
 */
export type PluginOutputs = EveryKind<{
  Kaas: KaasComputed;
  KaasBackup: KaasBackupComputed;
  Registry: RegistryComputed;
  VolumeAttachment: VolumeAttachmentComputed;
}>;

/** The type token of a kind's resources on the plugin path: `vendor-container:index:Kaas`. */
export const tokenOf = pluginTypeToken;

/** The kind a type token names, or undefined. */
export const kindOfToken = (token: string): KindName | undefined =>
  KIND_NAMES.find((kind) => pluginTypeToken(kind) === token);
