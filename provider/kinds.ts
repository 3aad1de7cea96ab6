import type { KindName } from "../schemas/kinds";

/** The Pulumi module of every kind: tokens read `pulumi-nodejs:dynamic/vendor-container:<Kind>`. */
export const MODULE = "vendor-container";

/** The type token of a kind's dynamic resources: `pulumi-nodejs:dynamic/vendor-container:Kaas`. */
export const dynamicTypeToken = (kind: KindName): string => `pulumi-nodejs:dynamic/${MODULE}:${kind}`;

/**
 * The token of a resource or function of the provider plugin (plugin/): `vendor-container:index:Kaas`,
 * `vendor-container:index:getKaas`.
 */
export const pluginToken = (name: string): string => `${MODULE}:index:${name}`;

/** The type token of a kind's resources on the provider plugin (plugin/): `vendor-container:index:Kaas`. */
export const pluginTypeToken = (kind: KindName): string => pluginToken(kind);
