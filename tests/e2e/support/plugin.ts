/**
 * Programs on the provider plugin: a copy of a program folder whose Pulumi.yaml names where the engine finds
 * `pulumi-resource-vendor-container`: the executable npm linked when it installed the package for the suite
 * (global-setup.ts), as a user's install links it.
 */
import fs from "node:fs";
import path from "node:path";
import { E2E_ROOT } from "./engine";
import type { Stack } from "@pulumi/pulumi/automation";
import { VendorContainerClient } from "../../../rest/client";
import { resolveSettings } from "../../../rest/settings";
import { TOKEN, type Suite } from "./suite";

/** The folder that holds the installed package's plugin executable. */
export const PLUGIN_BIN = path.join(E2E_ROOT, "node_modules", ".bin");

/**
 * Copies the program folder `from` (default: the suite's program, `tests/e2e/programs/resources`, which declares
 * the plugin's resources under `e2e:plugin`) as `project`, pointing it at the plugin.
 */
export function pluginProgram(s: Suite, project: string, from?: string): string {
  const dir = s.program(project, from);
  pointAtPlugin(dir);
  return dir;
}

/** Names, in the Pulumi.yaml of the program in `dir`, the folder where the engine finds the plugin. */
export function pointAtPlugin(dir: string): void {
  fs.appendFileSync(
    path.join(dir, "Pulumi.yaml"),
    `plugins:\n  providers:\n    - name: vendor-container\n      path: ${JSON.stringify(PLUGIN_BIN)}\n`,
  );
}

/** A client of the service as another user has it (its console, a script): no stack tracks what it makes. */
export function outsideClient(s: Suite): VendorContainerClient {
  const config: Record<string, string> = { "vendor:baseUrl": s.emulator.url, "vendor:token": TOKEN };
  return new VendorContainerClient(resolveSettings((key) => config[key], {}));
}

/** The configuration of the plugin, `vendor-container:*`, for the suite's emulator. */
export function pluginConfig(s: Suite, token: string, project: string, pollMs: string) {
  return {
    "vendor-container:baseUrl": { value: s.emulator.url },
    "vendor-container:token": { value: token, secret: true },
    "vendor-container:projectId": { value: project },
    "vendor-container:pollIntervalMs": { value: pollMs },
  };
}

/** An object of the emulator's state, as far as `liveIds` reads it. */
interface Recorded {
  metadata: { id?: string | null };
  status?: { state?: string | null } | null;
}

/** The ids of `objects` that still exist: not the tombstones the service keeps for a while (`Deleted`). */
const liveIds = (objects: readonly Recorded[]): (string | null | undefined)[] =>
  objects.filter((o) => o.status?.state !== "Deleted").map((o) => o.metadata.id);

/** A preview that fails naming `ha` (disabling HA is refused) before any mutating call to the service. */
export async function expectHaRefused(s: Suite, stack: Stack): Promise<void> {
  s.clearRequests();
  await expect(stack.preview()).rejects.toThrow(/ha/);
  expect(s.mutations()).toEqual([]);
}

/** `pulumi destroy`, after which the service holds no cluster and no registry. */
export async function expectDestroyed(s: Suite, stack: Stack): Promise<void> {
  await stack.destroy();
  const left = s.emulator.emulator.state();
  expect(liveIds(left.kaas)).toEqual([]);
  expect(liveIds(left.registries)).toEqual([]);
}
