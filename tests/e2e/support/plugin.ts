/**
 * Programs on the provider plugin: a copy of a program folder whose Pulumi.yaml names where the engine finds
 * `pulumi-resource-vendor-container`: the executable npm linked when it installed the package for the suite
 * (global-setup.ts), as a user's install links it.
 */
import fs from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import { E2E_ROOT } from "./engine";
import type { Stack } from "@pulumi/pulumi/automation";
import { VendorContainerClient } from "../../../rest/client";
import { resolveSettings } from "../../../rest/settings";
import { TOKEN, type Declared, type Suite } from "./suite";

/** The folder that holds the installed package's plugin executable. */
export const PLUGIN_BIN = path.join(E2E_ROOT, "node_modules", ".bin");

/** The installed package's schema (the Python program derives its SDK's names from it: `e2e:schema`). */
export const PLUGIN_SCHEMA = path.join(
  E2E_ROOT,
  "node_modules/pulumi-vendor-container/dist/plugin/schema.json",
);

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

/** The input properties the package schema gives the resource type `token` (`vendor-container:index:Kaas`). */
export function schemaInputNames(token: string): string[] {
  const schema = JSON.parse(fs.readFileSync(PLUGIN_SCHEMA, "utf8")) as {
    resources: Record<string, { inputProperties: Record<string, unknown> }>;
  };
  return Object.keys(schema.resources[token].inputProperties);
}

/**
 * A YAML program (its Pulumi.yaml, in YAML so that `name:` starts a line, as the file backend's readers of a
 * project expect: support/file-backend.ts `stackFiles`) named `project` on the plugin that
 * declares `declared` as `tests/e2e/programs/resources` does: each kind as `vendor-container:index:<kind>`, a
 * `{ $ref: "a.b" }` as `${a.b}`, a `{ $secret: value }` as `fn::secret`.
 */
export function yamlProgram(project: string, declared: readonly Declared[]): string {
  const value = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(value);
    if (typeof v !== "object" || v === null) return v;
    const bag = v as Record<string, unknown>;
    if (typeof bag.$ref === "string") return `\${${bag.$ref}}`;
    if ("$secret" in bag) return { "fn::secret": value(bag.$secret) };
    return Object.fromEntries(Object.entries(bag).map(([k, item]) => [k, value(item)]));
  };
  const resources = Object.fromEntries(
    declared.map((d) => {
      if (d.kind === "Provider" || d.provider !== undefined || d.importId !== undefined)
        throw new Error(
          `${d.name}: the YAML program declares the package's kinds only, with their arguments`,
        );
      const options = d.protect === undefined ? {} : { options: { protect: d.protect } };
      return [d.name, { type: `vendor-container:index:${d.kind}`, properties: value(d.args), ...options }];
    }),
  );
  const program = {
    name: project,
    runtime: "yaml",
    plugins: { providers: [{ name: "vendor-container", path: PLUGIN_BIN }] },
    resources,
  };
  return stringify(program);
}

/**
 * A client of the service (the emulator of `s`) as another user has it (its console, a script): no stack tracks
 * what it makes.
 */
export function outsideClient(s: Pick<Suite, "emulator">): VendorContainerClient {
  const config: Record<string, string> = { "vendor:baseUrl": s.emulator.url, "vendor:token": TOKEN };
  return new VendorContainerClient(resolveSettings((key) => config[key], {}));
}

/** The configuration of the plugin, `vendor-container:*`, for the emulator of `s`. */
export function pluginConfig(s: Pick<Suite, "emulator">, token: string, project: string, pollMs: string) {
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
