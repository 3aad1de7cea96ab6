/**
 * The provider process's configuration and clients. `configure` stores the stack configuration
 * synchronously (dynamic-provider notes: RPCs that arrive while an async `configure` is pending see an
 * unconfigured provider). Settings are read by rest/settings.ts and clients come from the process's one
 * cache (rest/clientCache.ts), which the SDK's functions share: one client per distinct settings serves every
 * resource of the stack. The client is loaded when the first one is made (see rest/lazy.ts): `check` and
 * `diff` never need it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { VendorContainerClient } from "../../rest/client";
import { resetSharedClients, sharedClient } from "../../rest/clientCache";
import { emit } from "../../rest/output";
import {
  CHECK_SETTING_SOURCES,
  readSetting,
  resolveSettings,
  settingsProblems,
  type VendorSettings,
} from "../../rest/settings";
import type { CheckContext } from "./arguments";
import { parseDeclaredLimits, type DeclaredLimits } from "./limits";
import { processStackSources, readStack, type StackReading } from "./stack";
import { isUnknown } from "./unknown";
import { isPlainObject } from "./typed";

/** The engine's `ConfigureRequest.config`. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

let stackConfig: ConfigSource | undefined;

/**
 * Stores the stack configuration. Synchronous on purpose. Also the moment the process first works for its
 * run, so the stack of a run without a program is read here, once (see `currentStack`).
 */
export function configure(config: ConfigSource | undefined): void {
  stackConfig = config;
  fallbackStack();
}

/** Settings from the stack configuration, falling back to the environment. */
export function currentSettings(): VendorSettings {
  return resolveSettings((key) => stackConfig?.get(key));
}

/**
 * What every kind's `check` reads from the process: the time, the default project, the state backend, the
 * declared limits, and what is wrong with the settings that are set (`settingsProblems`; a missing URL or
 * credentials is not a problem until a call). One place, so that every kind's check sees the same. Never
 * throws.
 */
export function checkContext(): CheckContext {
  return {
    now: Date.now(),
    defaultProjectId: defaultProjectId(),
    backend: backendIdentity(),
    limits: declaredLimits(),
    settingsProblems: settingsProblems((key) => stackConfig?.get(key)),
  };
}

/**
 * The default project id, by the rule of every setting (`readSetting`): `vendor:projectId`, then
 * `VENDOR_PROJECT_ID`, trimmed, blank meaning unset. `undefined` when neither is set. Never throws, since
 * `check` calls it without any service setting.
 */
export function defaultProjectId(): string | undefined {
  return readSetting("projectId", (key) => stackConfig?.get(key));
}

/**
 * The account's limits declared by `vendor:limits`, else `VENDOR_LIMITS` (the rule of `readSetting`), parsed
 * (provider/common/limits.ts); `undefined` when neither is set. Never throws, since `check` calls it: what is
 * wrong with the setting comes back with it, named by the source it was read from.
 */
export function declaredLimits(): DeclaredLimits | undefined {
  const get = (key: string) => stackConfig?.get(key);
  const [configKey, envName] = CHECK_SETTING_SOURCES.limits;
  const fromConfig = readSetting("limits", get, {});
  if (fromConfig !== undefined) return parseDeclaredLimits(fromConfig, configKey);
  return parseDeclaredLimits(readSetting("limits", get), envName);
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
  emit(line);
}

/** Prints a warning about `subject`: the CLI shows it as one on the plugin path. */
export function warn(subject: string, line: string): void {
  emit(`${subject}: ${line}`, "warning");
}

let backend: string | undefined;

/**
 * The identity of the state backend this run uses, as far as the provider process can see it: the URL of
 * `PULUMI_BACKEND_URL`, else the one `pulumi login` recorded as current in `$PULUMI_HOME/credentials.json`
 * (default `~/.pulumi`), reduced to scheme, host and path (credentials and query never leave the process).
 * Empty when neither is there. It seeds the creation token, so that two backends holding stacks of the same
 * project, stack and resource names do not share creation tags; where it cannot tell them apart, the rules
 * of `findCreated` still refuse to take over anything but an interrupted create.
 */
export function backendIdentity(): string {
  backend ??= normaliseBackendUrl(process.env.PULUMI_BACKEND_URL?.trim() || currentLogin() || "");
  return backend;
}

/** The backend `pulumi login` recorded as current, or undefined. */
function currentLogin(): string | undefined {
  const home = process.env.PULUMI_HOME?.trim() || path.join(os.homedir(), ".pulumi");
  try {
    const credentials: unknown = JSON.parse(fs.readFileSync(path.join(home, "credentials.json"), "utf8"));
    return isPlainObject(credentials) && typeof credentials.current === "string"
      ? credentials.current
      : undefined;
  } catch {
    return undefined;
  }
}

/** `scheme://host/path` of a backend URL: no user, password, query or fragment; unparseable text as is. */
export function normaliseBackendUrl(url: string): string {
  if (url === "") return "";
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(url);
  if (!scheme) return url;
  const rest = scheme[2].replace(/[?#].*$/, "");
  const slash = rest.indexOf("/");
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  const pathPart = slash < 0 ? "" : rest.slice(slash);
  // Host names are case-insensitive; paths are not.
  const host = (
    authority.includes("@") ? authority.slice(authority.lastIndexOf("@") + 1) : authority
  ).toLowerCase();
  return `${scheme[1].toLowerCase()}://${host}${pathPart}`.replace(/\/+$/, "");
}

/** Forgets the backend identity (tests). */
export function resetBackendIdentity(): void {
  backend = undefined;
}

let programScope: string | undefined;
let processReading: StackReading | undefined;

/**
 * Records the stack of the program this run executes, from a resource's `creationScope`
 * (`<project>/<stack>/<name>`, which the SDK class takes from `pulumi.getProject()` and `pulumi.getStack()`):
 * every `check` passes it on. One provider process serves one run of one stack, so the first one holds.
 */
export function noteProgramScope(scope: unknown): void {
  if (programScope !== undefined || typeof scope !== "string" || isUnknown(scope)) return;
  const [project, stack] = scope.split("/");
  if (project && stack) programScope = `${project}/${stack}`;
}

/** What the process itself can tell of its stack (provider/common/stack.ts), read once. */
function fallbackStack(): StackReading {
  processReading ??= readStack(processStackSources(backendIdentity, normaliseBackendUrl));
  return processReading;
}

/**
 * The stack this run acts for: the program's (`noteProgramScope`), fixed when the program's first resource is
 * checked; without a program (`pulumi destroy`), what the process read of its stack when it started.
 */
export function currentStack(): StackReading {
  return programScope !== undefined ? { scope: programScope } : fallbackStack();
}

/** Forgets the stack of this run (tests). */
export function resetCurrentStack(): void {
  programScope = undefined;
  processReading = undefined;
}

const replacements = new Map<string, string>();

/**
 * Records that `diff` planned to replace the object `id` of the resource `scope`: the create that follows in
 * this run is its replacement. A fallback for a program that could not read the state (`trackedId` unset): a
 * replacement the engine decides without `diff` (`pulumi up --replace`, a tainted resource) is not seen.
 */
export function noteReplacement(scope: unknown, id: string): void {
  if (typeof scope === "string" && !isUnknown(scope)) replacements.set(scope, id);
}

/** The object the run's `diff` planned to replace for the resource `scope`, if any (`noteReplacement`). */
export function replacedBy(scope: unknown): string | undefined {
  return typeof scope === "string" ? replacements.get(scope) : undefined;
}

/** Forgets the replacements seen (tests). */
export function resetReplacements(): void {
  replacements.clear();
}

/** The stack config key, and the variable, that let a delete remove an object another stack owns. */
export const ALLOW_FOREIGN_DELETE = ["vendor:allowForeignDelete", "VENDOR_ALLOW_FOREIGN_DELETE"] as const;

/**
 * Whether `vendor:allowForeignDelete` (else `VENDOR_ALLOW_FOREIGN_DELETE`) is `true`: a delete then removes
 * an object whose owner tag names another stack. Any other value, or none, keeps the refusal. The refusal
 * names the variable: `pulumi destroy` does not run the program, so it configures the provider with the stack
 * config recorded in the state by the last `pulumi up`, and a config key set just before it is not seen.
 */
export function foreignDeleteAllowed(): boolean {
  const [configKey, envName] = ALLOW_FOREIGN_DELETE;
  const value = [stackConfig?.get(configKey), process.env[envName]].find(
    (v) => v !== undefined && v.trim() !== "",
  );
  return value?.trim().toLowerCase() === "true";
}
