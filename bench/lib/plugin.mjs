// @ts-check
/**
 * Row 9 through the real engine: the provider plugin path (`vendor-container:index:Kaas` served by
 * `pulumi-resource-vendor-container`) against the dynamic path and against a minimal provider plugin. Three
 * programs declare resources with the same arguments (bench/programs/inputs.js): `ours` (this package's `Kaas`
 * dynamic resources), `plugin` (the same clusters through the plugin, as a program of any language declares
 * them) and `minimal-plugin` (one resource type of a provider plugin written on `@pulumi/pulumi/provider`, with
 * no I/O: the cost of any Node.js provider plugin). Each command (`pulumi preview` of the creation, `pulumi up`,
 * `pulumi preview --expect-no-changes`, `pulumi refresh`) runs on the three sides in an order that rotates every
 * round (preview.mjs `alternate`), all three stacks with the same configuration. The probe (children/probe.cjs)
 * gives the provider processes' RPC counts and peak RSS.
 */
import { FAST_DURATIONS } from "../../dist/emulator/index.js";
import { round } from "./common.mjs";
import {
  alternate,
  benchConfig,
  bySide,
  firstCheckMs,
  medianOf,
  ms,
  peakRssMb,
  perResource,
  probesOf,
  programOf,
  requestCounter,
} from "./preview.mjs";
import { LoadLog, paired, timings } from "./stats.mjs";

/** @typedef {import("./engine.mjs").EngineRun} EngineRun */
/** @typedef {import("./engine.mjs").CliResult} CliResult */
/** @typedef {import("./engine.mjs").Program} Program */
/** @typedef {import("../../dist/emulator/index.js").RunningEmulator} RunningEmulator */
/** @typedef {"oursDynamic" | "oursPlugin" | "minimalPlugin" | "restPlugin"} PluginSide */

/** The sides of the row, in the order of the first round, and the program each runs. */
const SIDES = /** @type {const} */ (["oursDynamic", "oursPlugin", "minimalPlugin", "restPlugin"]);
/**
 * The minimal plugin twice: answering from memory (`minimalPlugin`), and sending the service the requests this
 * package's plugin sends (`restPlugin`, configured with `minimal:baseUrl`), the baseline of `up` and `refresh`,
 * whose time is mostly the service's.
 * @type {Record<PluginSide, Program>}
 */
const PROGRAMS = {
  oursDynamic: "ours",
  oursPlugin: "plugin",
  minimalPlugin: "minimal-plugin",
  restPlugin: "minimal-plugin",
};
/** The sides whose service requests are counted. */
const OURS = /** @type {const} */ (["oursDynamic", "oursPlugin", "restPlugin"]);

const UP = ["up", "--yes", "--skip-preview"];
const DESTROY = ["destroy", "--yes", "--skip-preview"];
const REFRESH = ["refresh", "--yes", "--skip-preview", "--expect-no-changes"];

/**
 * The configuration of the three stacks: the dynamic path's (`vendor:*`) and the plugin's (`vendor-container:*`,
 * the provider's own configuration) against the same emulator, project and poll interval, on every side.
 * @param {RunningEmulator} emulator
 * @param {string} token
 * @param {number} resources
 */
function pluginPathConfig(emulator, token, resources) {
  return {
    ...benchConfig(emulator, token, { "bench:count": String(resources), "vendor:pollIntervalMs": "100" }),
    "vendor-container:baseUrl": { value: emulator.url },
    "vendor-container:token": { value: token, secret: true },
    "vendor-container:projectId": { value: "p-bench" },
    "vendor-container:pollIntervalMs": { value: "100" },
  };
}

/**
 * How many calls of each RPC method the provider process served in the first of `runs`, per resource (the
 * engine's own calls, `configure`, `getPluginInfo`, ..., are once per process and left out).
 * @param {CliResult[]} runs
 * @param {number} resources
 */
function rpcsPerResource(runs, resources) {
  const methods = probesOf(runs)[0]?.methods ?? {};
  return Object.fromEntries(
    ["check", "diff", "create", "read", "update", "delete"]
      .filter((name) => methods[name])
      .map((name) => [name, round(methods[name].count / resources, 2)]),
  );
}

/**
 * @param {{ run: EngineRun; emulator: RunningEmulator; token: string; resources: number; rounds: number;
 *   upRounds: number; onProgress: (line: string) => void }} options
 */
export async function measurePluginPath(options) {
  const { run, emulator, token, resources, rounds, upRounds, onProgress } = options;
  emulator.emulator.reset();
  emulator.emulator.updateConfig({ durations: FAST_DURATIONS });
  const config = pluginPathConfig(emulator, token, resources);
  /** @type {Partial<Record<PluginSide, import("./engine.mjs").BenchStack>>} */
  const made = {};
  const rest = {
    "minimal:baseUrl": { value: emulator.url },
    "minimal:token": { value: token },
    "minimal:projectId": { value: "p-bench" },
    "minimal:pollIntervalMs": { value: "100" },
  };
  for (const side of SIDES)
    made[side] =
      side === "restPlugin"
        ? await run.stack(PROGRAMS[side], "plugin-path-rest", { ...config, ...rest })
        : await run.stack(PROGRAMS[side], "plugin-path", config);
  const stacks = /** @type {Record<PluginSide, import("./engine.mjs").BenchStack>} */ (made);
  const load = new LoadLog();
  /** @type {import("./preview.mjs").Sides<PluginSide>} */
  const three = { stacks, sides: SIDES, load, onProgress };
  const destroyAll = async () => {
    for (const side of SIDES) await stacks[side].run(DESTROY);
  };

  const create = await alternate(three, "9 preview (create)", ["preview"], rounds);
  const upRequests = requestCounter(emulator, OURS);
  const ups = await alternate(three, "9 up", UP, upRounds, { ...upRequests, between: destroyAll });
  const noChange = await alternate(
    three,
    "9 preview (no change)",
    ["preview", "--expect-no-changes"],
    rounds,
  );
  const refreshRequests = requestCounter(emulator, OURS);
  const refresh = await alternate(three, "9 refresh", REFRESH, rounds, refreshRequests);
  await destroyAll();

  const commands = { create, up: ups, noChange, refresh };
  /** Each command's timings against a baseline side, paired by round. */
  const against = (/** @type {PluginSide} */ ours, /** @type {PluginSide} */ baseline) =>
    Object.fromEntries(
      Object.entries(commands).map(([name, results]) => [
        name,
        paired(ms(results[ours]), ms(results[baseline])),
      ]),
    );
  const sideFacts = (/** @type {PluginSide} */ side) => ({
    program: PROGRAMS[side],
    timings: Object.fromEntries(
      Object.entries(commands).map(([name, results]) => [name, timings(ms(results[side]))]),
    ),
    upPeakRssMb: medianOf(probesOf(ups[side]).map(peakRssMb)),
    upPeakRssRunsMb: probesOf(ups[side]).map((p) => (p ? round(p.peakRss / 1024 / 1024, 1) : null)),
    previewPeakRssMb: medianOf(probesOf(create[side]).map(peakRssMb)),
    firstCheckMs: medianOf(probesOf([...create[side], ...noChange[side]]).map(firstCheckMs)),
    upFirstCheckMs: medianOf(probesOf(ups[side]).map(firstCheckMs)),
    providerCpuMs: {
      create: medianOf(probesOf(create[side]).map((p) => p?.cpuMs)),
      up: medianOf(probesOf(ups[side]).map((p) => p?.cpuMs)),
      refresh: medianOf(probesOf(refresh[side]).map((p) => p?.cpuMs)),
    },
    programCpuMs: medianOf(programOf(create[side]).map((p) => p?.cpuMs)),
    rpcsPerResource: Object.fromEntries(
      Object.entries(commands).map(([name, results]) => [name, rpcsPerResource(results[side], resources)]),
    ),
    // Runs whose provider process left no probe report (none is expected: a missing one means the probe did not
    // recognise the process, and its figures above are the other runs').
    runsWithoutProviderReport: Object.values(commands)
      .flatMap((results) => probesOf(results[side]))
      .filter((p) => p === null).length,
  });

  return {
    resources,
    rounds,
    upRounds,
    load: load.summary(),
    pluginVsDynamic: against("oursPlugin", "oursDynamic"),
    pluginVsMinimal: against("oursPlugin", "minimalPlugin"),
    pluginVsRest: against("oursPlugin", "restPlugin"),
    requestsPerResource: {
      up: bySide(OURS, (side) => perResource(upRequests.runs[side][0] ?? {}, resources)),
      refresh: bySide(OURS, (side) => perResource(refreshRequests.runs[side][0] ?? {}, resources)),
    },
    sides: bySide(SIDES, sideFacts),
  };
}
