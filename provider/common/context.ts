/**
 * The provider process's configuration and clients. `configure` stores the stack configuration
 * synchronously (dynamic-provider notes: RPCs that arrive while an async `configure` is pending see an
 * unconfigured provider). One client per distinct settings serves every resource of the stack, so one
 * token and one keep-alive pool serve all of them. The client is loaded when the first one is made (see
 * rest/lazy.ts): `check` and `diff` never need it.
 */
import type { VendorContainerClient } from "../../rest/client";
import { clientModule } from "../../rest/lazy";
import { redact } from "../../rest/redact";
import { resolveSettings, type VendorSettings } from "../../rest/settings";

/** The engine's `ConfigureRequest.config`. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

let stackConfig: ConfigSource | undefined;
const clients = new Map<string, VendorContainerClient>();

/** Stores the stack configuration. Synchronous on purpose. */
export function configure(config: ConfigSource | undefined): void {
  stackConfig = config;
}

/** Settings from the stack configuration, falling back to the environment. */
export function currentSettings(): VendorSettings {
  return resolveSettings((key) => stackConfig?.get(key));
}

/** The default project id (`vendor:projectId` / `VENDOR_PROJECT_ID`), if any. Never throws. */
export function defaultProjectId(): string | undefined {
  const fromConfig = stackConfig?.get("vendor:projectId");
  const value = fromConfig ?? process.env.VENDOR_PROJECT_ID;
  return value && value.trim() !== "" ? value.trim() : undefined;
}

/** The shared client for the current settings. */
export function client(): VendorContainerClient {
  const settings = currentSettings();
  const key = JSON.stringify(settings);
  let existing = clients.get(key);
  if (!existing) {
    existing = new (clientModule().VendorContainerClient)(settings, {
      onRetry: (line) => log("retry", line),
    });
    clients.set(key, existing);
  }
  return existing;
}

/** Drops cached clients (tests). */
export function resetClients(): void {
  clients.clear();
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
