/**
 * The plugin's configuration: the settings of rest/settings.ts, which name their stack config keys
 * `vendor:<setting>`, are on the plugin path the provider's `vendor-container:<setting>` (stack config, or an
 * explicit provider's arguments). One place translates between the two, for what the plugin reads and for what
 * it says (messages, the package schema's descriptions).
 */
import type { ConfigSource } from "../provider/common/context";
import type { VendorSettings } from "../rest/settings";
import { PACKAGE } from "./kinds";
import { redact } from "../rest/redact";

/** The settings that are credentials: secret in the package schema, as they are in stack config. */
export const SECRET_SETTINGS = ["token", "clientSecret"] as const satisfies readonly (keyof VendorSettings)[];

/**
 * The settings as the engine sends them (`ConfigureRequest.variables`, keyed `vendor-container:config:<key>`),
 * read under the settings' own keys (`vendor:<key>`).
 */
export function configSource(variables: ReadonlyMap<string, string>): ConfigSource {
  return {
    get: (key) =>
      key.startsWith("vendor:")
        ? variables.get(`${PACKAGE}:config:${key.slice("vendor:".length)}`)
        : undefined,
  };
}

/** `text` with every setting it names (`vendor:baseUrl`) named as the plugin's (`vendor-container:baseUrl`). */
export const asPluginSetting = (text: string): string =>
  text.replace(/\bvendor:(?=[a-zA-Z])/g, `${PACKAGE}:`);

/**
 * `text` as the plugin sends it to the engine, in every message of the protocol (an error, the reasons of a
 * partial failure, a check failure, a line of the engine's log): secrets redacted, and the settings it names
 * under the plugin's keys. The provider's messages name the dynamic path's settings (`vendor:token`), which a
 * program on the plugin sets as `vendor-container:token`.
 */
export const pluginMessage = (text: string): string => redact(asPluginSetting(text));
