// @ts-check
/**
 * The real Pulumi engine for rows 2-4, 7 and 9: the CLI, the Node.js language host and the dynamic-provider
 * launcher that `scripts/engine.sh` builds into `.tools/bin`, driven as a user drives them (`pulumi preview`,
 * `up`, `refresh` in a program folder), timed from the outside.
 *
 * Programs get this package the way users do (as the end-to-end suite does, tests/e2e/support): packed with
 * `npm pack` and installed, not linked, with `@pulumi/pulumi` into `.tools/bench/node_modules` (whose `.bin`
 * then holds the provider plugin's executable, `pulumi-resource-vendor-container`); the programs
 * (bench/programs) are copied into a folder of one run below it, with that run's file backend and
 * `PULUMI_HOME`, so nothing the CLI writes lands in the repository. Every Node process the CLI starts loads
 * children/probe.cjs (through `NODE_OPTIONS`), which reports the provider process's calls and peak RSS, a
 * provider plugin's process included: the CLI starts it with its own environment, and the executable is a Node
 * script run by the `node` of `.tools/bin`, first on `PATH`.
 */
import { Buffer } from "node:buffer";
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { BENCH, ROOT } from "./common.mjs";

export const TOOLS = path.join(ROOT, ".tools");
export const BIN = path.join(TOOLS, "bin");
/** Folder whose `node_modules` the benchmark's programs resolve. */
export const WORKSPACE = path.join(TOOLS, "bench");
const PROBE = path.join(BENCH, "children", "probe.cjs");
const PASSPHRASE = "bench-passphrase";

const run = (/** @type {string} */ cmd, /** @type {string[]} */ args, /** @type {string} */ cwd) =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** Whether the engine is built (`bash scripts/engine.sh`). */
export function engineAvailable() {
  return ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs", "node"].every((name) => {
    try {
      fs.accessSync(path.join(BIN, name), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Versions of the engine's parts and of the SDK the programs run. */
export function engineVersions() {
  const version = (/** @type {string} */ bin, /** @type {string[]} */ args) => {
    try {
      return run(path.join(BIN, bin), args, ROOT).trim();
    } catch {
      return "unknown";
    }
  };
  const sdk = JSON.parse(
    fs.readFileSync(path.join(WORKSPACE, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
  ).version;
  return {
    cli: version("pulumi", ["version"]),
    languageHost: languageHostVersion(),
    node: version("node", ["--version"]),
    sdk,
  };
}

/**
 * The language host prints no version: scripts/engine.sh builds it from the `sdk/v3` release its wrapper
 * module pins, and stamps the binary it built (a link means a Pulumi install of the machine was used).
 */
function languageHostVersion() {
  const host = path.join(BIN, "pulumi-language-nodejs");
  if (!fs.existsSync(path.join(BIN, ".pulumi-language-nodejs.stamp")) || fs.lstatSync(host).isSymbolicLink())
    return `${fs.realpathSync(host)} (the machine's own)`;
  const mod = fs.readFileSync(path.join(ROOT, "scripts/engine/langhost/go.mod"), "utf8");
  return `${/sdk\/v3 (v\S+)/.exec(mod)?.[1] ?? "unknown"} (built by scripts/engine.sh)`;
}

/**
 * Packs this package (from `dist/`) and installs the tarball with `@pulumi/pulumi` into
 * `.tools/bench/node_modules`; skipped when the same tarball is installed already.
 */
export function prepareWorkspace() {
  const sdkVersion = JSON.parse(
    fs.readFileSync(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
  ).version;
  const packDir = path.join(WORKSPACE, "pack");
  fs.rmSync(packDir, { recursive: true, force: true });
  fs.mkdirSync(packDir, { recursive: true });
  const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", packDir], ROOT))[0];
  const tarball = path.join(packDir, packed.filename);
  const digest = createHash("sha256").update(fs.readFileSync(tarball)).digest("hex");
  const stamp = path.join(WORKSPACE, ".installed");
  const wanted = `${sdkVersion} ${digest}`;
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === wanted) return;
  const manifest = {
    name: "bench-programs",
    private: true,
    dependencies: {
      "@pulumi/pulumi": sdkVersion,
      "pulumi-vendor-container": `file:${path.relative(WORKSPACE, tarball)}`,
    },
  };
  fs.writeFileSync(path.join(WORKSPACE, "package.json"), JSON.stringify(manifest, null, 2));
  // The tarball keeps its name across builds: without the lock, npm installs what it holds now.
  fs.rmSync(path.join(WORKSPACE, "package-lock.json"), { force: true });
  fs.rmSync(path.join(WORKSPACE, "node_modules/pulumi-vendor-container"), { recursive: true, force: true });
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], WORKSPACE);
  fs.writeFileSync(stamp, wanted);
}

/**
 * @typedef {{ role: string; pid: number; servingMs: number | null; packageLoadMs: Record<string, number>;
 *   methods: Record<string, { count: number; firstStartMs: number; firstEndMs: number | null; totalMs: number }>;
 *   peakRss: number; cpuMs: number; endedMs: number }} ProbeReport
 * @typedef {{ ms: number; output: string; probes: ProbeReport[]; failed: boolean }} CliResult
 * @typedef {"ours" | "baseline" | "plugin" | "plugin-archive" | "minimal-plugin"} Program a folder of bench/programs
 */

/**
 * One benchmark run's world: a backend, a `PULUMI_HOME` and copies of the programs, below the workspace.
 */
export function openRun() {
  fs.mkdirSync(path.join(WORKSPACE, "runs"), { recursive: true });
  const dir = fs.mkdtempSync(path.join(WORKSPACE, "runs", "run-"));
  const backend = path.join(dir, "backend");
  const home = path.join(dir, "home");
  const probes = path.join(dir, "probes");
  for (const d of [backend, home, probes]) fs.mkdirSync(d);
  fs.cpSync(path.join(BENCH, "programs"), path.join(dir, "programs"), { recursive: true });
  const nodeOptions = `--require ${PROBE}`;
  /** @type {Record<string, string>} */
  const baseEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(PULUMI_|VENDOR_|NODE_OPTIONS$)/.test(key)) baseEnv[key] = value;
  }
  const env = {
    ...baseEnv,
    PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_HOME: home,
    NODE_OPTIONS: nodeOptions,
    BENCH_PROBE_DIR: probes,
  };
  let sequence = 0;

  /**
   * Runs the CLI in `program`'s folder; resolves with its wall time and the probe reports of the Node
   * processes it started. Rejects, with the output's tail, when it fails, unless `allowFailure` is set (then
   * `failed` is true).
   * @param {Program} program
   * @param {string[]} args
   * @param {{ extraEnv?: Record<string, string>; allowFailure?: boolean }} [options]
   * @returns {Promise<CliResult>}
   */
  function cli(program, args, options = {}) {
    const probeDir = path.join(probes, String((sequence += 1)));
    fs.mkdirSync(probeDir);
    const started = performance.now();
    const child = spawn(path.join(BIN, "pulumi"), [...args, "--non-interactive", "--color", "never"], {
      cwd: path.join(dir, "programs", program),
      env: { ...env, BENCH_PROBE_DIR: probeDir, ...options.extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    /** @type {Buffer[]} */
    const chunks = [];
    child.stdout.on("data", (c) => chunks.push(c));
    child.stderr.on("data", (c) => chunks.push(c));
    return new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code) => {
        const ms = performance.now() - started;
        const output = Buffer.concat(chunks).toString("utf8");
        if (code !== 0 && !options.allowFailure) {
          reject(
            new Error(`pulumi ${args.join(" ")} (${program}) failed (${code}):\n${output.slice(-4000)}`),
          );
          return;
        }
        const reports = fs
          .readdirSync(probeDir)
          .map(
            (f) => /** @type {ProbeReport} */ (JSON.parse(fs.readFileSync(path.join(probeDir, f), "utf8"))),
          );
        resolve({ ms, output, probes: reports, failed: code !== 0 });
      });
    });
  }

  return {
    dir,
    /** `NODE_OPTIONS` of every CLI run (the probe); a run may add to it. */
    nodeOptions,
    cli,
    /**
     * Creates stack `name` of `program` with `config` (`{ value, secret? }` per key).
     * @param {Program} program
     * @param {string} name
     * @param {Record<string, { value: string; secret?: boolean }>} config
     */
    async stack(program, name, config) {
      await cli(program, ["stack", "init", name]);
      const args = ["config", "set-all", "--stack", name];
      for (const [key, { value, secret }] of Object.entries(config))
        args.push(secret ? "--secret" : "--plaintext", `${key}=${value}`);
      await cli(program, args);
      return {
        /** @param {string[]} a @param {{ extraEnv?: Record<string, string>; allowFailure?: boolean }} [o] */
        run: (a, o) => cli(program, [...a, "--stack", name], o),
        /** @param {Record<string, string>} values plain config values to set */
        async set(values) {
          const setArgs = ["config", "set-all", "--stack", name];
          for (const [key, value] of Object.entries(values)) setArgs.push("--plaintext", `${key}=${value}`);
          await cli(program, setArgs);
        },
      };
    },
    close() {
      if (!process.env.BENCH_KEEP) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** @typedef {ReturnType<typeof openRun>} EngineRun */
/** @typedef {Awaited<ReturnType<EngineRun["stack"]>>} BenchStack */

/**
 * The probe report of the provider's process of a CLI run: the dynamic-provider process of a program of dynamic
 * resources, the plugin's of a program on a provider plugin (there is one per run that needs it).
 */
export function providerProbe(/** @type {CliResult} */ result) {
  return result.probes.find((p) => p.role === "provider" || p.role === "plugin") ?? null;
}
