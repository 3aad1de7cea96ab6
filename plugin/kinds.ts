/**
 * The plugin by kind: what the provider plugin serves of every kind of `KIND_NAMES` (schemas/kinds.ts). Each
 * kind's provider and properties (argument schema, computed outputs, secrets, the outputs no update changes) are
 * the dynamic path's own, from the implementation registry (provider/index.ts), where a kind left out does not
 * compile: the plugin adds the type token.
 */
import type { ArgumentSchema } from "../provider/common/arguments";
import type { KindProperties } from "../provider/common/properties";
import { KIND_PROPERTIES, type ComputedOutputs, type PropertiesByKind } from "../provider";
import { KIND_NAMES, type KindName } from "../schemas/kinds";
import { MODULE, pluginTypeToken } from "../provider/kinds";

/** The plugin's package name: its type tokens, its config keys (`vendor-container:baseUrl`) and its executable. */
export const PACKAGE = MODULE;

/** The plugin's registry: an entry for every kind of schemas/kinds.ts, its stable outputs among its outputs. */
export type PluginKindRegistry = {
  readonly [K in KindName]: KindProperties<ArgumentSchema, PluginOutputs[K]>;
};

/** Every kind, as the plugin serves it: its properties (provider/<kind>/types.ts), each with its own types. */
export const PLUGIN_KINDS: PropertiesByKind = KIND_PROPERTIES;

/**
 * The computed outputs of each kind, as types: the package schema states each resource's outputs from these
 * (scripts/package-schema.mjs), and `PLUGIN_KINDS[kind].computed` lists their names at run time.
 */
export type PluginOutputs = ComputedOutputs;

/** The type token of a kind's resources on the plugin path: `vendor-container:index:Kaas`. */
export const tokenOf = pluginTypeToken;

/** The kind a type token names, or undefined. */
export const kindOfToken = (token: string): KindName | undefined =>
  KIND_NAMES.find((kind) => pluginTypeToken(kind) === token);
