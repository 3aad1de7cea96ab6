/**
 * The one cache of REST clients of a process, shared by the providers (provider/common/context.ts) and the
 * SDK's functions (sdk/dataSource.ts): the same settings give the very same client, so one token and one
 * keep-alive pool serve every resource and every function of the process. The client module is loaded when
 * the first client is made (see rest/lazy.ts), so importing this module stays light.
 */
import { keysOf } from "../schemas/typed";
import type { VendorContainerClient } from "./client";
import { clientModule } from "./lazy";
import { emit } from "./output";
import type { VendorSettings } from "./settings";

const clients = new Map<string, VendorContainerClient>();

/**
 * Prints a retry line of a shared client. The same prefix as the provider's progress lines: the engine shows
 * a provider's console output as diagnostics, and a program's as its own output.
 */
function printRetry(line: string): void {
  emit(`retry: ${line}`);
}

/** The shared client of `settings`, made on first use; settings equal in every field give the same client. */
export function sharedClient(settings: VendorSettings): VendorContainerClient {
  // Keyed by every set field in a fixed order, so equal settings built differently share a client.
  const key = JSON.stringify(
    keysOf(settings)
      .filter((k) => settings[k] !== undefined)
      .sort()
      .map((k) => [k, settings[k]]),
  );
  let existing = clients.get(key);
  if (!existing) {
    existing = new (clientModule().VendorContainerClient)(settings, { onRetry: printRetry });
    clients.set(key, existing);
  }
  return existing;
}

/** Drops every shared client, so the next call makes a new one (tests, and a provider reconfigured). */
export function resetSharedClients(): void {
  clients.clear();
}
