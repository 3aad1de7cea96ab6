/**
 * One end-to-end test file's world: its own emulator on loopback, its own file backend and `PULUMI_HOME`, and
 * programs copied into a folder of their own below `.tools/e2e` (so the CLI's `Pulumi.<stack>.yaml` files never
 * touch the repository). Stacks are driven through the Automation API, which only shells out to the CLI in
 * `.tools/bin`; every line the CLI prints is kept for the secret search. The stacks' secrets are encrypted under
 * a data key that the suite's own key service wraps (`./vault.ts`), not under a passphrase.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import {
  LocalWorkspace,
  PulumiCommand,
  type ConfigMap,
  type OutputMap,
  type Stack,
} from "@pulumi/pulumi/automation";
import type { RunningEmulator } from "../../../emulator";
import type { RequestLogEntry } from "../../../emulator/transport/app";
import { checkpointResources, encryptValue, fastReads, stackFiles } from "./file-backend";
import { BIN, E2E_ROOT, ROOT, TOOLS, assertEngine, engineEnv } from "./engine";
import { startKeyService } from "./vault";
import { API_PREFIX, LOCATION, PROJECT, TOKEN, startService, type ServiceOptions } from "../../support/world";

export { LOCATION, PROJECT, TOKEN };
/** Poll interval of the providers: short, so waits end soon after the emulator settles. */
export const POLL_MS = "100";

/**
 * Emulator durations: long enough for the providers (polling every `POLL_MS`) to see each object in its
 * transitional state a few times, short enough that waiting is a small part of each run.
 */
export const E2E_DURATIONS = {
  kaasCreateMs: 600,
  kaasUpdateMs: 250,
  kaasDeleteMs: 250,
  registryCreateMs: 400,
  registryUpdateMs: 200,
  registryDeleteMs: 200,
  resetPasswordMs: 150,
  backupCreateMs: 250,
  backupUpdateMs: 150,
  backupDeleteMs: 200,
  attachMs: 150,
  detachMs: 150,
  tombstoneMs: 150,
};

/** A resource of the `resources` program (`tests/e2e/programs/resources/index.js`). */
export interface Declared {
  /** A kind, or (on the plugin, `e2e:plugin`) `Provider`: an explicit provider configured by `args`. */
  kind: "Kaas" | "KaasBackup" | "Registry" | "VolumeAttachment" | "Provider";
  name: string;
  args: Record<string, unknown>;
  protect?: boolean;
  /** The explicit provider of the resource, a `Provider` declared before (on the plugin only). */
  provider?: string;
  /** The id of an existing object to take over with the `import` resource option (on the plugin only). */
  importId?: string;
}

/** A reference to an output of a resource declared earlier in the same program. */
export const ref = (resource: string, output: string) => ({ $ref: `${resource}.${output}` });

/** The world of one test file. */
export interface Suite {
  emulator: RunningEmulator;
  /** Folder of this suite below `.tools/e2e` (backend, home, program copies). */
  dir: string;
  /** Every line the CLI printed so far (stdout and stderr), across stacks. */
  cliOutput: string[];
  /** A copy of `from` (a program folder, default the `resources` program) named `project`, ready to run. */
  program(project: string, from?: string): string;
  /**
   * A stack of the program in `workDir`, created (or selected) with the emulator's settings in its config
   * (`config` adds to them or overrides them; `env` adds to the environment of this stack's CLI runs).
   */
  stack(name: string, workDir: string, config?: ConfigMap, env?: Record<string, string>): Promise<Stack>;
  /**
   * Sets the `resources` program's declaration, as a secret config value when it carries a secret (the whole
   * stack config reaches the provider, and the engine stores it with the provider's inputs).
   */
  declare(stack: Stack, resources: Declared[], options?: { secret?: boolean }): Promise<void>;
  /** Every request the emulator saw since the last `clearRequests`, control API excluded. */
  requests(): RequestLogEntry[];
  /** The mutating ones (POST, PUT, PATCH, DELETE), as `METHOD /path` below the project's provider prefix. */
  mutations(): string[];
  /** Forgets the requests seen so far. */
  clearRequests(): void;
  /**
   * The stack's state as `pulumi stack export` writes it, secrets encrypted (the Automation API's `exportStack`
   * decrypts them).
   */
  exportState(stack: Stack): Promise<string>;
  /**
   * Runs the CLI directly (for what the Automation API does not expose); resolves with its exit and output.
   * `env` adds to the suite's environment, as a stack's own does for its Automation API runs.
   */
  cli(
    args: string[],
    workDir: string,
    options?: { detached?: boolean; env?: Record<string, string> },
  ): CliRun;
  /** The environment of every CLI run of this suite. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A CLI process started by `Suite.cli`. */
export interface CliRun {
  child: ChildProcess;
  /** Resolves when the process exits, with its code (null when killed) and everything it printed. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
}

/** The plain values of a stack's outputs, secret or not. */
export const values = (outputs: OutputMap): Record<string, unknown> =>
  Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.value]));

/** Starts an emulator and prepares a backend for one test file. */
export async function openSuite(name: string, emulatorOptions: ServiceOptions = {}): Promise<Suite> {
  assertEngine();
  const emulator = await startService({ durations: E2E_DURATIONS, ...emulatorOptions });
  fs.mkdirSync(path.join(E2E_ROOT, "runs"), { recursive: true });
  const dir = fs.mkdtempSync(path.join(E2E_ROOT, "runs", `${name}-`));
  const backend = path.join(dir, "backend");
  const home = path.join(dir, "home");
  fs.mkdirSync(backend);
  fs.mkdirSync(home);
  const keys = await startKeyService();
  const env = engineEnv({ PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_HOME: home, ...keys.env });
  const pulumiCommand = await PulumiCommand.get({ root: TOOLS, skipVersionCheck: true });
  const cliOutput: string[] = [];
  const record = (text: string) => cliOutput.push(text);
  const children = new Set<ChildProcess>();

  const suite: Suite = {
    emulator,
    dir,
    cliOutput,
    env,
    program(project, from = path.join(ROOT, "tests/e2e/programs/resources")) {
      const target = path.join(dir, "programs", project);
      fs.cpSync(from, target, {
        recursive: true,
        filter: (src) => !/node_modules|Pulumi\.[^/]+\.yaml$/.test(path.relative(from, src)),
      });
      const manifest = path.join(target, "Pulumi.yaml");
      const text = fs.readFileSync(manifest, "utf8").replace(/^name: .*$/m, `name: ${project}`);
      fs.writeFileSync(manifest, text);
      return target;
    },
    async stack(stackName, workDir, config = {}, extraEnv = {}) {
      const envVars = { ...env, ...extraEnv };
      const options = { pulumiHome: home, envVars, pulumiCommand, secretsProvider: keys.secretsProvider };
      const all: ConfigMap = {
        "vendor:baseUrl": { value: emulator.url },
        "vendor:token": { value: TOKEN, secret: true },
        "vendor:projectId": { value: PROJECT },
        "vendor:pollIntervalMs": { value: POLL_MS },
        ...config,
      };
      const files = stackFiles(envVars.PULUMI_BACKEND_URL ?? "", workDir, stackName);
      const settingsFile = path.join(workDir, `Pulumi.${stackName}.yaml`);
      let stack: Stack;
      if (files && !fs.existsSync(files.checkpoint) && !fs.existsSync(settingsFile)) {
        // A new stack on a file backend: its settings file is written first, with a data key the key service
        // wraps and the config (secret values encrypted under that key, as `pulumi config set --secret` does),
        // and `pulumi stack init` keeps both. One CLI run instead of three (a `stack select` that fails, the
        // init, a `config set-all`).
        const { key, encryptedKey } = keys.newDataKey();
        const settings = {
          secretsProvider: keys.secretsProvider,
          encryptedKey,
          config: Object.fromEntries(
            Object.entries(all).map(([name, { value, secret }]) => [
              name,
              secret ? { secure: encryptValue(value, key) } : value,
            ]),
          ),
        };
        stack = await LocalWorkspace.createStack(
          { stackName, workDir },
          { ...options, stackSettings: { [stackName]: settings } },
        );
      } else {
        stack = await LocalWorkspace.createOrSelectStack({ stackName, workDir }, options);
        await stack.setAllConfig(all);
      }
      return withOutputCapture(fastReads(stack, keys), record);
    },
    async declare(stack, resources, options = {}) {
      const value = JSON.stringify(resources);
      if (options.secret) return stack.setConfig("e2e:resources", { value, secret: true });
      // A plain value goes into `Pulumi.<stack>.yaml` as `pulumi config set` writes it, without a CLI run.
      const settings = await stack.workspace.stackSettings(stack.name);
      const config = { ...settings.config, "e2e:resources": value };
      await stack.workspace.saveStackSettings(stack.name, { ...settings, config });
    },
    requests: () => emulator.emulator.requests(),
    mutations: () =>
      emulator.emulator
        .requests()
        .filter((r) => r.mutating)
        .map((r) => `${r.method} ${r.path.replace(API_PREFIX, "")}`),
    clearRequests: () => emulator.emulator.clearRequests(),
    async exportState(stack) {
      const run = suite.cli(["stack", "export", "--stack", stack.name], stack.workspace.workDir);
      const { code, output } = await run.done;
      if (code !== 0) throw new Error(`pulumi stack export failed (${code}): ${output}`);
      return output;
    },
    cli(args, workDir, options = {}) {
      const child = spawn(path.join(BIN, "pulumi"), [...args, "--non-interactive", "--color", "never"], {
        cwd: workDir,
        env: { ...env, ...options.env },
        detached: options.detached ?? false,
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.add(child);
      let output = "";
      const take = (chunk: Buffer) => {
        output += String(chunk);
      };
      child.stdout!.on("data", take);
      child.stderr!.on("data", take);
      const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>(
        (resolve) =>
          child.on("close", (code, signal) => {
            children.delete(child);
            record(output);
            resolve({ code, signal, output });
          }),
      );
      return { child, done };
    },
    async close() {
      for (const child of children) child.kill("SIGKILL");
      await emulator.close();
      await keys.close();
      if (!process.env.E2E_KEEP) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return suite;
}

type Operation = "up" | "preview" | "refresh" | "destroy";

/**
 * Wraps a stack so every `up`, `preview`, `refresh` and `destroy` keeps what the CLI prints (and prints it on
 * failure too: a failed operation throws, and its output is in the error).
 */
function withOutputCapture(stack: Stack, record: (text: string) => void): Stack {
  for (const op of ["up", "preview", "refresh", "destroy"] as Operation[]) {
    const original = (stack[op] as (opts?: Record<string, unknown>) => Promise<unknown>).bind(stack);
    Object.assign(stack, {
      [op]: async (opts: Record<string, unknown> = {}) => {
        const onOutput = opts.onOutput as ((out: string) => void) | undefined;
        try {
          return await original({
            color: "never",
            ...opts,
            onOutput: (out: string) => {
              record(out);
              onOutput?.(out);
            },
          });
        } catch (error) {
          record(String((error as Error).message));
          throw error;
        }
      },
    });
  }
  return stack;
}

/** Declares `resources` in `stack`, runs `pulumi up`, and returns the mutating calls it made and the outputs. */
export async function upWith(s: Suite, stack: Stack, resources: Declared[]) {
  await s.declare(stack, resources);
  s.clearRequests();
  const result = await stack.up();
  return { calls: s.mutations(), outputs: values(result.outputs), summary: result.summary };
}

/** A preview and a refresh of `stack` that must both find nothing to do, and make no mutating call. */
export async function expectSettledIn(s: Suite, stack: Stack): Promise<void> {
  s.clearRequests();
  await stack.preview({ expectNoChanges: true });
  await stack.refresh({ expectNoChanges: true });
  expect(s.mutations()).toEqual([]);
}

/** The outputs of resource `name` in the stack's state (a refresh updates these, not the stack's outputs). */
export async function stateOutputsOf(stack: Stack, name: string): Promise<Record<string, unknown>> {
  const state = await stack.exportStack();
  const resources = (state.deployment.resources ?? []) as {
    urn: string;
    outputs?: Record<string, unknown>;
  }[];
  const found = resources.find((r) => r.urn.endsWith(`::${name}`));
  if (!found) throw new Error(`no resource ${name} in the stack's state`);
  return found.outputs ?? {};
}

/** The state entries of `stack` for this package's resources, dynamic or the plugin's: resource name -> id. */
export async function trackedOf(stack: Stack): Promise<Record<string, string>> {
  // Ids are never secret: the checkpoint of a file backend has them without `pulumi stack export`.
  const resources =
    checkpointResources(stack) ??
    ((await stack.exportStack()).deployment.resources as { urn: string; id?: string; type: string }[]) ??
    [];
  return Object.fromEntries(
    resources
      .filter((r) => /^(pulumi-nodejs:dynamic\/vendor-container|vendor-container:index):/.test(r.type))
      .map((r) => [r.urn.split("::").pop() ?? "", r.id ?? ""]),
  );
}
