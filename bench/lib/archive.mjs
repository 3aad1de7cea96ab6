// @ts-check
/**
 * Row 10: the release's plugin (the single executable of `pulumi-resource-vendor-container-v<version>-linux-amd64.tar.gz`,
 * `npm run release`) against the same plugin run by Node.js from `node_modules` (the link npm made in the
 * benchmark's workspace, as row 9 runs it).
 *
 * - Start-up: the time from starting the process to its answer to the first `check`, as the engine meets it:
 *   the process is started with the engine's argument, prints its port, and gets `configure` and then `check`
 *   of one cluster over gRPC. This file plays the engine's part, so that the archive's process needs no probe
 *   (children/probe.cjs cannot reach into the executable's bundled gRPC server). Rounds alternate the sides.
 * - Peak RSS: the process's `VmHWM` during a `pulumi up` of the clusters through the engine (programs
 *   `plugin` and `plugin-archive`, which differ only in the plugin folder their `Pulumi.yaml` names), read by
 *   the probe, which does run inside the executable (Node.js honours `NODE_OPTIONS` there).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import process from "node:process";
import { performance } from "node:perf_hooks";
import readline from "node:readline";
import { FAST_DURATIONS } from "../../dist/emulator/index.js";
import { ROOT, round } from "./common.mjs";
import { BIN, WORKSPACE } from "./engine.mjs";
import { alternate, bySide, medianOf, ms, orderOf, peakRssMb, probesOf } from "./preview.mjs";
import { LoadLog, paired } from "./stats.mjs";

/** @typedef {import("./engine.mjs").EngineRun} EngineRun */
/** @typedef {import("../../dist/emulator/index.js").RunningEmulator} RunningEmulator */
/** @typedef {"archive" | "npm"} ArchiveSide */

const SIDES = /** @type {const} */ (["archive", "npm"]);
/** Where the archive's executable is unpacked: the `plugin-archive` program's `Pulumi.yaml` names it. */
export const ARCHIVE_DIR = path.join(WORKSPACE, "archive");
const EXECUTABLE = "pulumi-resource-vendor-container";

/**
 * Makes the release (`npm run release`'s script: it remakes only what changed) and unpacks this machine's
 * archive into ARCHIVE_DIR.
 */
export function prepareArchive() {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  execFileSync(process.execPath, [path.join(ROOT, "scripts", "release.mjs")], { cwd: ROOT, stdio: "ignore" });
  fs.rmSync(ARCHIVE_DIR, { recursive: true, force: true });
  fs.mkdirSync(ARCHIVE_DIR, { recursive: true });
  const archive = path.join(ROOT, "dist", "release", `${EXECUTABLE}-v${version}-linux-amd64.tar.gz`);
  execFileSync("tar", ["-xzf", archive, "-C", ARCHIVE_DIR]);
}

/** The executable of each side: the archive's, and the link npm made (a script that runs `node`). */
const EXECUTABLES = {
  archive: path.join(ARCHIVE_DIR, EXECUTABLE),
  npm: path.join(WORKSPACE, "node_modules", ".bin", EXECUTABLE),
};

/** The protocol's client side, from the workspace's `@pulumi/pulumi`, as the plugin's server side is. */
function protocol() {
  const pulumiRequire = createRequire(
    createRequire(path.join(ROOT, "package.json")).resolve("@pulumi/pulumi"),
  );
  return {
    grpc: pulumiRequire("@grpc/grpc-js"),
    struct: pulumiRequire("google-protobuf/google/protobuf/struct_pb"),
    provider: pulumiRequire("@pulumi/pulumi/proto/provider_pb"),
    service: pulumiRequire("@pulumi/pulumi/proto/provider_grpc_pb"),
  };
}

/**
 * Starts `executable` as the engine does (its address as the only argument; this one answers nothing, and
 * `configure` and `check` never call it), and resolves with the milliseconds from the start to the answer of
 * the first `check`, then stops the process as the engine does (SIGINT).
 * @param {ReturnType<typeof protocol>} p
 * @param {string} executable
 * @param {Record<string, string>} variables the plugin's configuration, `vendor-container:*`
 * @param {Record<string, unknown>} news a cluster's arguments
 */
async function firstCheck(p, executable, variables, news) {
  /** @type {Record<string, string | undefined>} */
  const env = { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ""}` };
  delete env.NODE_OPTIONS;
  const started = performance.now();
  const child = spawn(executable, ["127.0.0.1:9"], { env, stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  try {
    const port = await new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("exit", (code) => reject(new Error(`${executable} exited (${code}) before it served`)));
      readline.createInterface({ input: child.stdout }).once("line", (line) => resolve(line.trim()));
    });
    const client = new p.service.ResourceProviderClient(
      `127.0.0.1:${port}`,
      p.grpc.credentials.createInsecure(),
    );
    /** @type {(method: string, request: unknown) => Promise<unknown>} */
    const call = (method, request) =>
      new Promise((resolve, reject) =>
        client[method](request, (/** @type {Error | null} */ error, /** @type {unknown} */ response) =>
          error ? reject(error) : resolve(response),
        ),
      );
    const configure = new p.provider.ConfigureRequest().setAcceptsecrets(true);
    // The engine keys each setting `<package>:config:<name>`.
    for (const [key, value] of Object.entries(variables))
      configure.getVariablesMap().set(key.replace(":", ":config:"), value);
    await call("configure", configure);
    const check = new p.provider.CheckRequest()
      .setUrn("urn:pulumi:bench::bench-plugin::vendor-container:index:Kaas::c000")
      .setOlds(p.struct.Struct.fromJavaScript({}))
      .setNews(p.struct.Struct.fromJavaScript(news));
    const response = /** @type {{ getFailuresList(): { getProperty(): string; getReason(): string }[] }} */ (
      await call("check", check)
    );
    const answered = performance.now() - started;
    const failures = response.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
    if (failures.length > 0) throw new Error(`${executable}: the check failed: ${failures.join("; ")}`);
    client.close();
    return answered;
  } finally {
    child.kill("SIGINT");
    await exited;
  }
}

/**
 * @param {{ run: EngineRun; emulator: RunningEmulator; token: string; resources: number; rounds: number;
 *   upRounds: number; onProgress: (line: string) => void }} options
 */
export async function measureArchive(options) {
  const { run, emulator, token, resources, rounds, upRounds, onProgress } = options;
  prepareArchive();
  emulator.emulator.reset();
  emulator.emulator.updateConfig({ durations: FAST_DURATIONS });
  const require = createRequire(import.meta.url);
  const { clusterArgs } = require("../programs/inputs.js");
  const settings = {
    "vendor-container:baseUrl": emulator.url,
    "vendor-container:token": token,
    "vendor-container:projectId": "p-bench",
    "vendor-container:pollIntervalMs": "100",
  };
  const p = protocol();
  const load = new LoadLog();
  const startUp = bySide(SIDES, () => /** @type {number[]} */ ([]));
  // One start of each first, untimed: the first start of an executable reads it from disk.
  for (const side of SIDES) await firstCheck(p, EXECUTABLES[side], settings, clusterArgs("c000"));
  for (let i = 0; i < rounds * 2; i += 1)
    for (const side of orderOf(i, SIDES)) {
      load.sample();
      startUp[side].push(await firstCheck(p, EXECUTABLES[side], settings, clusterArgs("c000")));
    }
  onProgress(
    `10 first check: archive ${round(medianOf(startUp.archive) ?? NaN, 0)} ms, npm ${round(medianOf(startUp.npm) ?? NaN, 0)} ms`,
  );

  const config = {
    "bench:count": { value: String(resources) },
    ...Object.fromEntries(
      Object.entries(settings).map(([key, value]) => [key, { value, secret: key.endsWith(":token") }]),
    ),
  };
  const stacks = {
    archive: await run.stack("plugin-archive", "archive", config),
    npm: await run.stack("plugin", "archive", config),
  };
  const destroyAll = async () => {
    for (const side of SIDES) await stacks[side].run(["destroy", "--yes", "--skip-preview"]);
  };
  const ups = await alternate(
    { stacks, sides: SIDES, load, onProgress },
    "10 up",
    ["up", "--yes", "--skip-preview"],
    upRounds,
    { between: destroyAll },
  );
  await destroyAll();
  const rss = bySide(SIDES, (side) => probesOf(ups[side]).map(peakRssMb));
  const rssMedian = bySide(SIDES, (side) => medianOf(rss[side]));
  return {
    resources,
    load: load.summary(),
    firstCheck: paired(startUp.archive, startUp.npm),
    firstCheckMs: {
      ...bySide(SIDES, (side) => round(medianOf(startUp[side]) ?? NaN, 1)),
      runs: bySide(SIDES, (side) => startUp[side].map((x) => round(x, 1))),
    },
    up: paired(ms(ups.archive), ms(ups.npm)),
    peakRssMb: {
      ...rssMedian,
      ratio: round((rssMedian.archive ?? NaN) / (rssMedian.npm ?? NaN), 3),
      runs: rss,
    },
    executableMb: round(fs.statSync(EXECUTABLES.archive).size / 1024 / 1024, 1),
  };
}
