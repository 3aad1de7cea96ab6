/**
 * The service client of the Pulumi program's own process: what the SDK's functions read with, and what the
 * classes keep the objects' bookkeeping tags with (sdk/persisted.ts). The same settings as the providers
 * (rest/settings.ts: stack config `vendor:*`, then `VENDOR_*`), read from the program's stack configuration,
 * and the process's shared client for them (rest/clientCache.ts), loaded on the first call so importing the
 * SDK stays light.
 */
import * as pulumi from "@pulumi/pulumi";
import type { VendorContainerClient } from "../rest/client";
import { sharedClient } from "../rest/clientCache";
import { SETTING_SOURCES, resolveSettings, type VendorSettings } from "../rest/settings";

/**
 * The settings of the program's process, `overrides` first, and the shared client for them. An override is a
 * value already in its settings' form (`VendorSettings`): text and numbers are read as the configuration would
 * be, so that they are checked alike; the parsed ones (`stateNames`, `unknownStateTimeoutMs`) replace what the
 * configuration says.
 */
export function programClient(overrides: Partial<VendorSettings> = {}): {
  client: VendorContainerClient;
  settings: VendorSettings;
} {
  const given: Readonly<Record<string, unknown>> = overrides;
  const nameOf = Object.fromEntries(Object.entries(SETTING_SOURCES).map(([name, [key]]) => [key, name]));
  const resolved = resolveSettings((key) => {
    const override = given[nameOf[key]];
    if (typeof override === "string" || (typeof override === "number" && !PARSED.has(nameOf[key])))
      return String(override);
    // `runtime.getConfig` reads the stack configuration without the warning `Config.get` prints for secrets.
    return pulumi.runtime.getConfig(key);
  });
  const parsed = Object.fromEntries(
    [...PARSED].filter((name) => given[name] !== undefined).map((name) => [name, given[name]]),
  );
  const settings: VendorSettings = { ...resolved, ...parsed };
  return { client: sharedClient(settings), settings };
}

/** The settings whose form differs from their configuration's text (JSON, a duration). */
const PARSED: ReadonlySet<string> = new Set<keyof VendorSettings>(["stateNames", "unknownStateTimeoutMs"]);
