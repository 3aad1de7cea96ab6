/**
 * The provider process's configuration and clients. `configure` stores the stack configuration
 * synchronously (dynamic-provider notes: RPCs that arrive while an async `configure` is pending see an
 * unconfigured provider). Settings are read by rest/settings.ts and clients come from the process's one
 * cache (rest/clients.ts), which the SDK's functions share: one client per distinct settings serves every
 * resource of the stack. The client is loaded when the first one is made (see rest/lazy.ts): `check` and
 * `diff` never need it.
 */
import type { VendorContainerClient } from "../../rest/client";
import { resetSharedClients, sharedClient } from "../../rest/clients";
import { redact } from "../../rest/redact";
import { readSetting, resolveSettings, type VendorSettings } from "../../rest/settings";

/** The engine's `ConfigureRequest.config`. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

let stackConfig: ConfigSource | undefined;

/** Stores the stack configuration. Synchronous on purpose. */
export function configure(config: ConfigSource | undefined): void {
  stackConfig = config;
}

/** Settings from the stack configuration, falling back to the environment. */
export function currentSettings(): VendorSettings {
  return resolveSettings((key) => stackConfig?.get(key));
}

/**
 * The default project id, by the rule of every setting (`readSetting`): `vendor:projectId`, then
 * `VENDOR_PROJECT_ID`, trimmed, blank meaning unset. `undefined` when neither is set. Never throws, since
 * `check` calls it without any service setting.
 */
export function defaultProjectId(): string | undefined {
  return readSetting("projectId", (key) => stackConfig?.get(key));
}

/** The shared client for the current settings (the same object the SDK's functions get for them). */
export function client(): VendorContainerClient {
  return sharedClient(currentSettings());
}

/** Drops cached clients (tests). */
export function resetClients(): void {
  resetSharedClients();
}

/**
 * Prints a progress line. The engine shows the provider's console output as diagnostics without a URN
 * (dynamic-provider notes), so every line names its resource.
 */
export function log(subject: string, line: string): void {
  progress(`${subject}: ${line}`);
}

/** Prints a line that already names its resource (the waiter's progress lines do). */
export function progress(line: string): void {
  console.log(redact(`[vendor-container] ${line}`));
}
