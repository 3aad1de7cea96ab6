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

/** The settings of the program's process, `overrides` first, and the shared client for them. */
export function programClient(overrides: Partial<VendorSettings> = {}): {
  client: VendorContainerClient;
  settings: VendorSettings;
} {
  const given: Readonly<Record<string, unknown>> = overrides;
  const nameOf = Object.fromEntries(Object.entries(SETTING_SOURCES).map(([name, [key]]) => [key, name]));
  const settings = resolveSettings((key) => {
    // The settings are text, and numbers for durations (`VendorSettings`).
    const override = given[nameOf[key]] as string | number | undefined;
    // `runtime.getConfig` reads the stack configuration without the warning `Config.get` prints for secrets.
    return override !== undefined ? String(override) : pulumi.runtime.getConfig(key);
  });
  return { client: sharedClient(settings), settings };
}
