#!/usr/bin/env node
// Environments as stacks: the command a platform team runs to create, update, list and destroy its
// environments. Every environment (dev, staging, prod, pr-<number>) is a stack of the platform program
// (`platform/`: cluster and registry) and a stack of the application program (`app/`: reads the platform
// through a stack reference), driven through Pulumi's Automation API. What sets environments apart is in
// `settings.ts`. See README.md.
//
//   environments up <env>... [--set key=value]...   create or update environments, several at once
//   environments destroy <env> [--force]              destroy an environment and remove its stacks
//   environments list [--json]                        the environments, their state and outputs
//   environments kubeconfig <env> [--out <file>]      write the kubeconfig, readable by its owner only
//
// The Pulumi CLI is the `pulumi` on PATH, or `<dir>/bin/pulumi` with `--pulumi-root <dir>`. The backend, the
// passphrase and the service settings come from the environment as for any Pulumi run (`PULUMI_BACKEND_URL`,
// `PULUMI_CONFIG_PASSPHRASE`, `VENDOR_BASE_URL`, `VENDOR_PROJECT_ID`, `VENDOR_TOKEN`...).
import fs from "node:fs";
import path from "node:path";
import { LocalWorkspace, PulumiCommand, Stack, type OutputMap } from "@pulumi/pulumi/automation";
import { SETTABLE, environmentSettings } from "./settings";

const USAGE = `usage:
  environments up <env>... [--set key=value]...
  environments destroy <env> [--force]
  environments list [--json]
  environments kubeconfig <env> [--out <file>]
options:
  --pulumi-root <dir>   run <dir>/bin/pulumi instead of the pulumi on PATH
environments: dev, staging, prod, pr-<number>; --set keys: ${Object.keys(SETTABLE).join(", ")}`;

/** A mistake in the command line: printed with the usage, exit code 2. */
class UsageError extends Error {}

/** Where the programs are, which Pulumi CLI runs them, and where messages go. */
export interface Options {
  /** Folder holding `platform/` and `app/`. */
  root: string;
  /** Folder holding `bin/pulumi`; default the `pulumi` on PATH. */
  pulumiRoot?: string;
  /** Prints a line for the user. */
  log: (line: string) => void;
}

/** One environment as `list` shows it. */
export interface EnvironmentListing {
  environment: string;
  protected: boolean;
  platform: StackListing;
  app: StackListing | null;
}

/** One stack as `list` shows it: secret outputs read `[secret]`. */
export interface StackListing {
  resources: number | null;
  lastUpdate: string | null;
  updateInProgress: boolean;
  outputs: Record<string, unknown>;
}

/** The two workspaces of the environments: one per program, sharing the Pulumi CLI. */
interface Workspaces {
  platform: LocalWorkspace;
  app: LocalWorkspace;
}

async function workspaces(options: Options): Promise<Workspaces> {
  const pulumiCommand = await PulumiCommand.get(options.pulumiRoot ? { root: options.pulumiRoot } : {});
  const open = (program: string) =>
    LocalWorkspace.create({ workDir: path.join(options.root, program), pulumiCommand });
  return { platform: await open("platform"), app: await open("app") };
}

/** Prints what the engine prints, line by line, prefixed with the stack it comes from. */
function prefixed(prefix: string, log: (line: string) => void): (chunk: string) => void {
  let pending = "";
  return (chunk) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") log(`[${prefix}] ${line}`);
  };
}

/** A summary's resource changes, by operation in alphabetical order: `2 same, 1 update`. */
function describeChanges(changes: Record<string, number> | undefined): string {
  const parts = Object.entries(changes ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([op, count]) => `${count} ${op}`);
  return parts.length > 0 ? parts.join(", ") : "no changes";
}

/**
 * The one line that says why a Pulumi run failed. The Automation API's error message is the whole run
 * (`code: ... stdout: ... stderr: ...`); the reason is the engine's first `error:` line: a resource's
 * diagnostic (printed on stdout under "Diagnostics", naming the resource and its problem) before the CLI's
 * own (stderr: a locked stack, a missing stack). The engine's closing "update failed" adds nothing and is
 * skipped. Any other error gives the first line of its message.
 */
export function failureReason(error: unknown): string {
  const result = (error as { commandResult?: { stdout?: string; stderr?: string } } | null)?.commandResult;
  if (result) {
    const errorLines = (text = "") =>
      text
        .split("\n")
        .map((line) => /^\s*error: (.+)$/.exec(line)?.[1].trim())
        .filter((line): line is string => !!line);
    const reasons = [...errorLines(result.stdout), ...errorLines(result.stderr)].filter(
      (line) => !/^(update|preview|destroy|refresh) failed$/.test(line),
    );
    if (reasons.length > 0) return reasons[0];
    const firstLine = (result.stderr ?? "").split("\n").find((line) => line.trim() !== "");
    if (firstLine) return firstLine.trim();
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n").find((line) => line.trim() !== "") ?? "failed";
}

/**
 * Failures of several environments: one line each, `<env>: <stack>: <reason>`, which the command line prints
 * one per line.
 */
export class EnvironmentsFailed extends Error {
  constructor(readonly failures: string[]) {
    super(failures.join("\n"));
    this.name = "EnvironmentsFailed";
  }
}

/**
 * The environments named, each once, in the order first named: `up prod prod` is one `up` of prod, since two
 * runs of one stack would only fail on each other's lock.
 */
export function uniqueEnvironments(envs: string[]): string[] {
  return [...new Set(envs)];
}

/**
 * Creates or updates environments, all at once: each its platform stack first, then its application stack.
 * `settings` are stack config values of the platform stacks (`size`, `kubernetesVersion`), kept for later runs.
 * Concurrent runs are safe: every operation names its stack, and the CLI replaces its workspace file atomically.
 * An environment named twice is brought up once. When any fails, the others still finish, and the error lists
 * one line per failed environment: the stack that failed and why.
 */
export async function up(envs: string[], settings: Record<string, string>, options: Options): Promise<void> {
  const ws = await workspaces(options);
  const config = Object.fromEntries(Object.entries(settings).map(([key, value]) => [key, { value }]));
  const unique = uniqueEnvironments(envs);
  const results = await Promise.allSettled(
    unique.map(async (env) => {
      let stage = "platform";
      try {
        const platform = await Stack.createOrSelect(env, ws.platform);
        if (Object.keys(config).length > 0) await platform.setAllConfig(config);
        const platformResult = await platform.up({ onOutput: prefixed(`${env}/platform`, options.log) });
        options.log(`${env}: platform: ${describeChanges(platformResult.summary.resourceChanges)}`);
        stage = "app";
        const app = await Stack.createOrSelect(env, ws.app);
        const appResult = await app.up({ onOutput: prefixed(`${env}/app`, options.log) });
        options.log(`${env}: app: ${describeChanges(appResult.summary.resourceChanges)}`);
      } catch (error) {
        throw new Error(`${env}: ${stage}: ${failureReason(error)}`);
      }
    }),
  );
  const failures = results.flatMap((result) =>
    result.status === "rejected" ? [(result.reason as Error).message] : [],
  );
  if (failures.length > 0) throw new EnvironmentsFailed(failures);
}

/** The resources of a stack that carry Pulumi's `protect` option. */
async function protectedResources(stack: Stack): Promise<string[]> {
  const { deployment } = await stack.exportStack();
  return ((deployment.resources ?? []) as { urn: string; protect?: boolean }[])
    .filter((r) => r.protect)
    .map((r) => r.urn);
}

/** Clears the `protect` option of every resource of a stack, so that `destroy` may delete them. */
async function unprotect(stack: Stack): Promise<void> {
  const state = await stack.exportStack();
  for (const resource of (state.deployment.resources ?? []) as { protect?: boolean }[])
    resource.protect = false;
  await stack.importStack(state);
}

/**
 * Destroys an environment, its application first, and removes its stacks. A protected environment (its table
 * entry says so, or a resource of its platform stack carries `protect`) is refused, and nothing is touched,
 * unless `force` is set.
 */
export async function destroy(env: string, force: boolean, options: Options): Promise<void> {
  const settings = environmentSettings(env);
  const ws = await workspaces(options);
  const names = async (w: LocalWorkspace) => (await w.listStacks()).map((s) => s.name);
  if (!(await names(ws.platform)).includes(env)) throw new Error(`there is no environment ${env}`);
  const platform = await Stack.select(env, ws.platform);
  const locked = await protectedResources(platform);
  if ((settings.protect || locked.length > 0) && !force) {
    throw new Error(
      `${env} is protected (its cluster carries Pulumi's protect option): nothing was destroyed. ` +
        `Run "destroy ${env} --force" to destroy it.`,
    );
  }
  if ((await names(ws.app)).includes(env)) {
    const app = await Stack.select(env, ws.app);
    const result = await app.destroy({ onOutput: prefixed(`${env}/app`, options.log) });
    options.log(`${env}: app: ${describeChanges(result.summary.resourceChanges)}`);
    await ws.app.removeStack(env);
  }
  if (locked.length > 0) {
    options.log(`${env}: removing the protect option of ${locked.length} resource(s) (--force)`);
    await unprotect(platform);
  }
  const result = await platform.destroy({ onOutput: prefixed(`${env}/platform`, options.log) });
  options.log(`${env}: platform: ${describeChanges(result.summary.resourceChanges)}`);
  await ws.platform.removeStack(env);
  options.log(`${env}: destroyed, stacks removed`);
}

function masked(outputs: OutputMap): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(outputs).map(([key, output]) => [key, output.secret ? "[secret]" : output.value]),
  );
}

/** Every environment: its platform stack (and application stack, if any), their state and outputs. */
export async function list(options: Options): Promise<EnvironmentListing[]> {
  const ws = await workspaces(options);
  const [platforms, apps] = await Promise.all([ws.platform.listStacks(), ws.app.listStacks()]);
  const listing = async (w: LocalWorkspace, name: string, summary: (typeof platforms)[number]) => ({
    resources: summary.resourceCount ?? null,
    lastUpdate: summary.lastUpdate ?? null,
    updateInProgress: summary.updateInProgress ?? false,
    outputs: masked(await w.stackOutputs(name)),
  });
  const environments = await Promise.all(
    platforms.map(async (summary): Promise<EnvironmentListing> => {
      const appSummary = apps.find((a) => a.name === summary.name);
      let isProtected = false;
      try {
        isProtected = environmentSettings(summary.name).protect;
      } catch {
        // A stack of the platform project that is not an environment of the table is listed all the same.
      }
      return {
        environment: summary.name,
        protected: isProtected,
        platform: await listing(ws.platform, summary.name, summary),
        app: appSummary ? await listing(ws.app, summary.name, appSummary) : null,
      };
    }),
  );
  return environments.sort((a, b) => a.environment.localeCompare(b.environment));
}

/** The lines `list` prints for people. */
function listingLines(environments: EnvironmentListing[]): string[] {
  if (environments.length === 0) return ["no environments"];
  const values = (outputs: Record<string, unknown>) =>
    Object.entries(outputs)
      .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
      .join(" ");
  return environments.flatMap((e) => [
    `${e.environment}${e.protected ? " (protected)" : ""}: ${e.platform.resources ?? 0} platform resources, ` +
      `${e.app?.resources ?? 0} app resources, last update ${e.platform.lastUpdate ?? "never"}` +
      (e.platform.updateInProgress ? ", update in progress" : ""),
    `  platform: ${values(e.platform.outputs)}`,
    `  app: ${e.app ? values(e.app.outputs) : "(no stack)"}`,
  ]);
}

/**
 * Writes a file only its owner can read or write (mode 0600): created under a temporary name with that mode,
 * then renamed over the target, so the content is never readable by others, whatever an older file allowed.
 */
export function writeOwnerOnly(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, content, { mode: 0o600, flag: "wx" });
  fs.renameSync(temporary, file);
}

/** Writes the kubeconfig of an environment to `file`, readable by its owner only. */
export async function kubeconfig(env: string, file: string, options: Options): Promise<void> {
  const ws = await workspaces(options);
  if (!(await ws.platform.listStacks()).some((s) => s.name === env)) {
    throw new Error(`there is no environment ${env}`);
  }
  const value = (await ws.platform.stackOutputs(env)).kubeconfig?.value;
  if (typeof value !== "string" || value === "") throw new Error(`${env} has no kubeconfig yet`);
  writeOwnerOnly(file, value);
  options.log(`${env}: kubeconfig written to ${file} (mode 600)`);
}

/** The command line, parsed. */
export interface Parsed {
  command: string;
  envs: string[];
  set: Record<string, string>;
  force: boolean;
  json: boolean;
  out?: string;
  pulumiRoot?: string;
}

/**
 * Parses a command line; throws a {@link UsageError} (exit code 2) for a mistake. Environments named twice
 * are kept once.
 */
export function parseCommandLine(argv: string[]): Parsed {
  const parsed: Parsed = { command: argv[0] ?? "", envs: [], set: {}, force: false, json: false };
  const value = (i: number, flag: string) => {
    if (argv[i + 1] === undefined) throw new UsageError(`${flag} needs a value`);
    return argv[i + 1];
  };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--force") parsed.force = true;
    else if (arg === "--json") parsed.json = true;
    else if (arg === "--out") parsed.out = value(i++, arg);
    else if (arg === "--pulumi-root") parsed.pulumiRoot = value(i++, arg);
    else if (arg === "--set") {
      const [key, ...rest] = value(i++, arg).split("=");
      const setting = SETTABLE[key];
      if (!Object.prototype.hasOwnProperty.call(SETTABLE, key) || rest.length === 0) {
        throw new UsageError(`--set takes key=value with a key among ${Object.keys(SETTABLE).join(", ")}`);
      }
      if (!setting.pattern.test(rest.join("="))) throw new UsageError(`--set ${key}: ${setting.meaning}`);
      parsed.set[key] = rest.join("=");
    } else if (arg.startsWith("--")) throw new UsageError(`unknown option ${arg}`);
    else parsed.envs.push(arg);
  }
  parsed.envs = uniqueEnvironments(parsed.envs);
  const envCount: Record<string, [number, number]> = {
    up: [1, Infinity],
    destroy: [1, 1],
    kubeconfig: [1, 1],
    list: [0, 0],
  };
  const [min, max] = envCount[parsed.command] ?? [];
  if (min === undefined) throw new UsageError(`unknown command "${parsed.command}"`);
  if (parsed.envs.length < min || parsed.envs.length > max) {
    const count = max === 0 ? "no environment" : max === 1 ? "one environment" : "at least one environment";
    throw new UsageError(`${parsed.command} takes ${count}`);
  }
  for (const env of parsed.envs) {
    try {
      environmentSettings(env);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  return parsed;
}

/** The folder of the programs: this file's folder, or its parent once compiled into `bin/`. */
function defaultRoot(): string {
  return fs.existsSync(path.join(__dirname, "platform")) ? __dirname : path.resolve(__dirname, "..");
}

/** Runs one command line; resolves with the exit code (0 done, 1 failed or refused, 2 usage error). */
export async function main(
  argv: string[],
  io: { out: (line: string) => void; err: (line: string) => void } = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
): Promise<number> {
  try {
    const args = parseCommandLine(argv);
    const options: Options = { root: defaultRoot(), pulumiRoot: args.pulumiRoot, log: io.out };
    switch (args.command) {
      case "up":
        await up(args.envs, args.set, options);
        break;
      case "destroy":
        await destroy(args.envs[0], args.force, options);
        break;
      case "kubeconfig":
        await kubeconfig(args.envs[0], path.resolve(args.out ?? `kubeconfig-${args.envs[0]}.yaml`), options);
        break;
      case "list": {
        const environments = await list(options);
        if (args.json) io.out(JSON.stringify(environments, null, 2));
        else listingLines(environments).forEach((line) => io.out(line));
        break;
      }
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}\n${USAGE}`);
      return 2;
    }
    const lines = error instanceof EnvironmentsFailed ? error.failures : [failureReason(error)];
    for (const line of lines) io.err(`error: ${line}`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
