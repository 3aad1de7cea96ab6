// @ts-check
/** The engine rows (2-4 and 7) of the report: their summary lines and their section of details. */

/** @param {number} x */
const fixed = (x, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : "—");
/** @param {number} n */
const int = (n) => Math.round(n).toLocaleString("en-US");
/** @param {import("./stats.mjs").Timings} t */
const seconds = (t) => `${fixed(t.medianS)} s (${fixed(t.minS)}–${fixed(t.maxS)})`;
/** @param {import("./stats.mjs").Paired} p */
const pairedRatio = (p) => `${fixed(p.ratio)} (${fixed(p.ratioMin)}–${fixed(p.ratioMax)})`;
/** @param {string} s */
const cell = (s) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
/** @param {string[][]} rows */
const table = (rows) =>
  [rows[0], rows[0].map(() => "---"), ...rows.slice(1)]
    .map((r) => `| ${r.map(cell).join(" | ")} |`)
    .join("\n");
/** @param {{ median: number; min: number; max: number } | null} l */
const loadText = (l) => (l ? `${fixed(l.median)} (${fixed(l.min)}–${fixed(l.max)})` : "unknown");

/**
 * The summary lines of rows 2-4 and 7.
 * @param {any} engine `results.engine`
 * @returns {string[][]}
 */
export function engineSummaryRows(engine) {
  const { preview: p, provisioning: v, settings } = engine;
  const n = p.resources;
  const quick = settings.quick;
  /** @param {boolean} ok */
  const verdict = (ok) => (quick ? "quick run: no verdict" : ok ? "met" : "**missed**");
  const reported = quick ? "quick run" : "reported";
  const o = p.ours;
  const b = p.baseline;
  const calls = (/** @type {Record<string, number>} */ perResource) =>
    Object.entries(perResource)
      .map(([shape, count]) => `${count} \`${shape}\``)
      .join(" + ");
  const throttled = (/** @type {number[]} */ xs) => xs.join(", ");
  return [
    [
      "2a",
      `\`pulumi preview\`, ${n} clusters to create (${p.rounds} rounds)`,
      seconds(p.create.ours),
      `${n} minimal dynamic resources, same inputs: ${seconds(p.create.baseline)}`,
      pairedRatio(p.create),
      "≤ 1.10",
      verdict(p.create.ratio <= 1.1),
    ],
    [
      "2a",
      `the same with \`PULUMI_DEBUG_PROMISE_LEAKS=1\` on both sides (sdk/leakTraces.ts off) (e)`,
      seconds(p.createDebugLeaks.ours),
      seconds(p.createDebugLeaks.baseline),
      pairedRatio(p.createDebugLeaks),
      "—",
      reported,
    ],
    [
      "2b",
      `\`pulumi preview --expect-no-changes\`, ${n} existing clusters`,
      seconds(p.noChange.ours),
      seconds(p.noChange.baseline),
      pairedRatio(p.noChange),
      "≤ 1.10",
      verdict(p.noChange.ratio <= 1.1),
    ],
    [
      "2c",
      `\`pulumi refresh --expect-no-changes\`, ${n} existing clusters; calls per resource`,
      `${seconds(p.refresh.ours)}; ${o.refreshReadCalls / n} \`read\` + ${o.refreshDiffCalls / n} \`diff\` RPC, ${calls(p.refreshRequestsPerResource)} to the service`,
      `read returns the state: ${seconds(p.refresh.baseline)}; ${b.refreshReadCalls / n} \`read\` + ${b.refreshDiffCalls / n} \`diff\` RPC, no I/O`,
      pairedRatio(p.refresh),
      "report",
      reported,
    ],
    [
      "2c",
      `the same under \`vendor:kubeconfigRefresh: onChange\` (the kubeconfig downloaded again only when the cluster changed)`,
      `${seconds(p.refreshOnChange.ours)}; ${calls(p.refreshOnChangeRequestsPerResource)} to the service`,
      seconds(p.refreshOnChange.baseline),
      pairedRatio(p.refreshOnChange),
      "≤ 1.25",
      verdict(p.refreshOnChange.ratio <= 1.25),
    ],
    [
      "3",
      `\`pulumi up\`, one cluster provisioning ${v.provisioningS} s, poll interval 1 s (${v.rounds} rounds)`,
      `${seconds(v.one.ours)}; readiness seen ${v.one.lag ? `${fixed(v.one.lag.medianS)} s late (max ${fixed(v.one.lag.maxS)})` : "—"}`,
      `minimal resource whose create sleeps ${v.provisioningS} s: ${seconds(v.one.baseline)}`,
      pairedRatio(v.one),
      "≤ 1.05",
      verdict(v.one.ratio <= 1.05 && v.one.failedRuns === 0),
    ],
    [
      "3",
      `one cluster with the default poll interval (10 s), provisioning ${v.defaultInterval.runs.map((/** @type {{ provisioningS: number }} */ r) => r.provisioningS).join(", ")} s: readiness seen late by`,
      `${v.defaultInterval.runs.map((/** @type {{ lagS: number | null }} */ r) => (r.lagS === null ? "—" : `${fixed(r.lagS)} s`)).join(", ")}; \`up\` ${v.defaultInterval.runs.map((/** @type {{ upS: number }} */ r) => fixed(r.upS)).join(", ")} s`,
      `the baseline's median above: ${fixed(v.one.baseline.medianS)} s`,
      `${fixed(v.defaultInterval.ratioToBaseline)} (${v.defaultInterval.runs[0].provisioningS} s run)`,
      "report",
      reported,
    ],
    [
      "4",
      `\`pulumi up --parallel ${v.fleet}\`, ${v.fleet} clusters at once vs 1 (provisioning ${v.provisioningS} s, poll 1 s) (f)`,
      `${seconds(v.fleetVsOne.ours)}; ${throttled(v.fleetVsOne.throttled)} answered 429`,
      `one cluster, same rounds: ${seconds(v.fleetVsOne.baseline)}`,
      pairedRatio(v.fleetVsOne),
      "≤ 1.5",
      verdict(v.fleetVsOne.ratio <= 1.5 && v.fleetVsOne.failedRuns === 0),
    ],
    [
      "4",
      `the same under the emulator's rate limit (${v.rateLimited.limit.ratePerSecond}/s, burst ${v.rateLimited.limit.burst}, 429 with \`Retry-After: ${v.rateLimited.limit.retryAfterSeconds}\`)`,
      `${seconds(v.rateLimited.ours)}; 429s per run: ${throttled(v.rateLimited.throttledFleet)} of ${throttled(v.rateLimited.requestsFleet)} requests${
        v.rateLimited.errors.length > 0
          ? `; **creates failed** per run: ${throttled(v.rateLimited.failedResources)} (g)`
          : "; every create succeeded"
      }`,
      `one cluster under the same limit: ${seconds(v.rateLimited.baseline)}; 429s: ${throttled(v.rateLimited.throttledOne)}`,
      pairedRatio(v.rateLimited),
      "≤ 1.5",
      verdict(v.rateLimited.ratio <= 1.5 && v.rateLimited.errors.length === 0),
    ],
    [
      "7",
      "dynamic-provider process: first `check` answered, ms after the process started (median of the previews)",
      `${int(o.firstCheckMs)} ms (of which loading \`pulumi-vendor-container/provider\`: ${fixed(o.providerLoadMs, 1)} ms)`,
      `minimal provider's process: ${int(b.firstCheckMs)} ms`,
      fixed(o.firstCheckMs / b.firstCheckMs),
      "≤ 1.05",
      verdict(o.firstCheckMs / b.firstCheckMs <= 1.05),
    ],
    [
      "7",
      `dynamic-provider process: peak RSS (kernel \`VmHWM\`) during the \`pulumi up\` of ${n} clusters (median of ${p.upRounds})`,
      `${fixed(o.upPeakRssMb, 1)} MB`,
      `minimal provider's process, ${n} resources: ${fixed(b.upPeakRssMb, 1)} MB`,
      `${fixed(o.upPeakRssMb / b.upPeakRssMb)} (+${fixed(o.upPeakRssMb - b.upPeakRssMb, 1)} MB)`,
      "≤ 1.10",
      verdict(o.upPeakRssMb / b.upPeakRssMb <= 1.1),
    ],
  ];
}

/** The seconds of each run of a command, as a table cell. */
const runs = (/** @type {import("./stats.mjs").Timings} */ t) => t.runsS.map((x) => fixed(x)).join(", ");

/**
 * The details section of rows 2-4 and 7.
 * @param {any} engine `results.engine`
 */
export function engineDetails(engine) {
  const { preview: p, provisioning: v, versions, settings } = engine;
  const n = p.resources;
  const runRows = [
    [
      "Row",
      "Command",
      "Ours, runs (s)",
      "Baseline, runs (s)",
      "Ratio: median of rounds (range)",
      "Ratio of medians",
    ],
    ...[
      ["2a", "`pulumi preview`", p.create],
      ["2a", "`pulumi preview`, `PULUMI_DEBUG_PROMISE_LEAKS=1`", p.createDebugLeaks],
      ["2b", "`pulumi preview --expect-no-changes`", p.noChange],
      ["2c", "`pulumi refresh --yes --skip-preview --expect-no-changes`", p.refresh],
      ["2c", "the same, `VENDOR_KUBECONFIG_REFRESH=onChange`", p.refreshOnChange],
      ["3", "`pulumi up --yes --skip-preview`, 1 cluster vs the sleeping resource", v.one],
      [
        "4",
        `\`pulumi up --yes --skip-preview --parallel ${v.fleet}\`, ${v.fleet} clusters vs 1`,
        v.fleetVsOne,
      ],
      ["4", `the same under the rate limit`, v.rateLimited],
    ].map(([row, command, r]) => [
      String(row),
      String(command),
      runs(r.ours),
      runs(r.baseline),
      pairedRatio(r),
      fixed(r.ratioOfMedians),
    ]),
  ];
  const o = p.ours;
  const b = p.baseline;
  const sideRows = [
    ["Per run, median", "Ours", "Baseline"],
    ["program process: loading the package (`require`)", `${fixed(o.programLoadMs, 1)} ms`, "—"],
    [
      "program process: CPU time, preview of the creation",
      `${int(o.programCpuMs)} ms`,
      `${int(b.programCpuMs)} ms`,
    ],
    [
      "provider process: CPU time, preview of the creation",
      `${int(o.providerCpuMs)} ms`,
      `${int(b.providerCpuMs)} ms`,
    ],
    [
      "provider process: loading `pulumi-vendor-container/provider` (first `check`)",
      `${fixed(o.providerLoadMs, 1)} ms`,
      "—",
    ],
    [
      "provider process: first `check` answered after process start, each preview of the creation",
      o.firstCheckRunsMs.join(", ") + " ms",
      b.firstCheckRunsMs.join(", ") + " ms",
    ],
    [
      "provider process: first `check` answered after process start, `pulumi up`",
      `${int(o.upFirstCheckMs)} ms`,
      `${int(b.upFirstCheckMs)} ms`,
    ],
    [
      "provider process: peak RSS, preview of the creation",
      `${fixed(o.previewPeakRssMb, 1)} MB`,
      `${fixed(b.previewPeakRssMb, 1)} MB`,
    ],
    [
      "provider process: peak RSS, `pulumi up`, each run",
      `${o.upPeakRssRunsMb.join(", ")} MB`,
      `${b.upPeakRssRunsMb.join(", ")} MB`,
    ],
    [
      `\`pulumi up\` of the ${n} resources (fast emulator, poll 100 ms)`,
      runs(o.up) + " s",
      runs(b.up) + " s",
    ],
    [
      "service calls per resource in that `up`",
      Object.entries(p.upRequestsPerResource)
        .map(([shape, count]) => `${count} \`${shape}\``)
        .join(", "),
      "none",
    ],
    [
      "progress lines (`[vendor-container]`) printed in a preview",
      String(o.consoleLinesInPreview),
      String(b.consoleLinesInPreview),
    ],
  ];

  const profileRows = [
    [
      "Preview of the creation",
      "Process",
      "Busy ms",
      "GC ms",
      "Resource constructors",
      "`transferProperties`",
      "Stack formatting",
      "Loading this package",
      "`check` RPCs",
    ],
  ];
  for (const variant of p.profile ?? []) {
    for (const role of ["program", "provider"]) {
      const s = variant[role];
      if (!s) continue;
      const f = Object.values(s.frames).map((x) => int(/** @type {number} */ (x)));
      profileRows.push([
        `${variant.label} (${fixed(variant.previewS)} s)`,
        role,
        int(s.busyMs),
        int(s.gcMs),
        ...(role === "program" ? [f[0], f[1], f[2], f[3], "—"] : ["—", "—", "—", f[3], f[4]]),
      ]);
    }
  }

  const steps = p.providerMemorySteps ?? [];
  const memoryRows = [
    ["Step (cumulative)", "RSS", "Added", "Heap used"],
    ...steps.map(
      (/** @type {{ step: string; rssMb: number; heapUsedMb: number }} */ s, /** @type {number} */ i) => [
        s.step,
        `${fixed(s.rssMb, 1)} MB`,
        i === 0 ? "—" : `+${fixed(s.rssMb - steps[i - 1].rssMb, 1)} MB`,
        `${fixed(s.heapUsedMb, 1)} MB`,
      ],
    ),
  ];

  return `## Rows 2–4 and 7: through the engine

Engine: \`pulumi\` ${versions.cli}, \`pulumi-language-nodejs\` ${versions.languageHost}, Node ${versions.node}; the
programs run \`@pulumi/pulumi\` ${versions.sdk}. Load of the machine (1-minute average, sampled before each run,
median and range): rows 2 and 7 ${loadText(p.load)}; rows 3 and 4 ${loadText(v.load)}.${
    settings.quick
      ? "\n\n**Quick run** (`--quick`): fewer resources, rounds and a shorter provisioning; a check of the harness, not figures."
      : ""
  }

How (bench/lib/engine.mjs, preview.mjs, provisioning.mjs): this package is packed with \`npm pack\` and installed with
\`@pulumi/pulumi\` into \`.tools/bench/node_modules\`, as users install it; the two programs (bench/programs:
\`ours\` declares ${n} \`Kaas\`, \`baseline\` ${n} minimal dynamic resources with the same arguments, whose provider's
\`check\` returns its inputs, \`read\` the state and \`create\` sleeps \`bench:createSleepMs\`) run from folders below
it, with a file backend, against the emulator in the benchmark's process, both stacks with the same
configuration. Times are the wall time of the \`pulumi\` process, start to exit. Each row alternates ours and its
baseline, one pair per round, the order switching every round; the ratio is the median of the rounds' ratios
and its range the spread. Every Node process the CLI starts loads bench/children/probe.cjs (\`NODE_OPTIONS\`),
which times the dynamic-provider process's gRPC methods and reads its peak RSS (\`VmHWM\`) when it ends.

${table(runRows)}

${table(sideRows)}

Where the provider process's memory goes (bench/children/provider-memory.cjs: the engine's Node loads, one step
at a time, what that process loads during an \`up\` of clusters, RSS after a full GC). The host alone, which
the baseline's process also is, takes most of it:

${table(memoryRows)}

The validators are generated at build time with ajv's standalone mode (\`scripts/validators.mjs\`) and loaded
when first needed, so the process never loads ajv's compiler nor holds what its code generation allocates: a
validator costs its own code only. A list's validator holds its own copy of the cluster schema's code:
checking a list's items one by one with the cluster's validator instead was measured (with validators compiled
at run time) to save about 5 MB in this table but raise the peak during the \`up\` of row 7 by 15 MB, because
the cluster's validator, then called once per listed item, becomes hot and V8's optimised code for it is large;
so lists keep their own copy (schemas/validate.ts). What is left above the baseline is the REST client and the
validators of the requests and answers one cluster's create needs, which it loads by name: it loads no wire
schema and no TypeBox (the endpoint table names its schemas), and requests go out through Node's own \`http\`
(rest/transport.ts), with no HTTP library (axios took about 4.5 MB of this table until it was replaced).

(e) sdk/leakTraces.ts is on unless \`PULUMI_DEBUG_PROMISE_LEAKS\` is set: this row shows the preview as it is for
someone debugging promise leaks (the lazy loading of the REST client alone), and what sdk/leakTraces.ts saves
everyone else.

(f) \`--parallel ${v.fleet}\` on every \`up\` of rows 3 and 4: by default the CLI runs at most 4 resource
operations per core at once (\`defaultParallel\` in Pulumi's cmd/pulumi/operations/up.go, 8 on 2 cores), so
without it ${v.fleet} clusters are created in waves, like any ${v.fleet} resources whose create takes that
long${
    v.fleet === 50 && v.provisioningS === 30
      ? ": an earlier run of this benchmark, without the option, measured 214.5 s for 50 clusters against 32.3 s for one (seven provisionings of 30 s)"
      : ""
  }. A stack that creates many slow resources at once wants \`--parallel\` (or
\`PULUMI_PARALLEL\`).

(g) A rate-limited request is repeated until its call's deadline, outside the attempt budget of other faults
(\`RetryPolicy.maxAttempts\`, rest/retry.ts), and each \`Retry-After\` wait gets up to 1 s of jitter
(\`retryAfterJitterMs\`) so callers limited in the same second do not come back together. With a fixed budget
of 10 attempts, 2 of 11 \`pulumi up\` of 50 clusters at once under this limit failed with 2 clusters not
created (\`GET /kaas failed (deadline): gave up after retries within the deadline; last error: GET /kaas failed
(429 Too Many Requests)\`), and 4 in one run of the previous measurement; under a harder limit (20 requests a
second) that budget failed 17 of 50 creates at once through the engine;
tests/integration/reliability-load.test.ts creates and deletes 50 clusters at once under 50 requests a second.
${
  v.rateLimited.errors.length > 0
    ? `In this run it happened; the errors, as the CLI printed them (resource: error), one line per failed create
over all rounds:

${v.rateLimited.errors.map((/** @type {{ resource: string; error: string }} */ e) => `- ${e.resource}: ${e.error}`).join("\n")}
`
    : "In this run every create succeeded."
}

### Where the preview time goes

One \`pulumi preview\` of the creation of each variant, with \`--cpu-prof\` in the program's and the provider's
process (bench/lib/profile.mjs; inclusive milliseconds, so the columns overlap: the constructors include
\`transferProperties\`, which includes most of the stack formatting; profiling slows everything down).

${table(profileRows)}

Before this change (commit e82d4dc, the same 100 clusters, profiled the same way, load about 3.5):

- With this benchmark's programs, 5 alternating rounds: a preview of the creation took 1.30 times the
  baseline's, one with nothing to change 1.28 times (the issue measured 1.3 and 1.25).
- Program: \`require("pulumi-vendor-container")\` took 134–205 ms and loaded 379 modules (200 of TypeBox, 63 of
  ajv, axios and its dependencies), because \`sdk/functions.ts\` imported the REST client.
- Provider: the first \`check\` waited for \`require("pulumi-vendor-container/provider")\`, 163 ms and 408
  modules, because \`provider/common/context.ts\` imported the REST client; check and diff never call it.
- Program, most of the difference: the constructors of 100 clusters took 1,259 ms against 592 ms for the
  baseline's; 1,150 ms against 454 ms inside the SDK's \`transferProperties\`, and 1,126 ms against 606 ms in
  ts-node's source-map-support \`prepareStackTrace\`. The SDK makes four promises per property and records a
  source-mapped stack trace on each (\`debuggablePromise\`), and a cluster registers 31 properties (its 8
  arguments here, \`identity\`, \`creationScope\`, the 20 output-only names it seeds so that the engine fills
  them, \`__provider\`) where the baseline registers 9. The program's CPU time was 3,064 ms against 2,061 ms;
  the provider's 818 against 732 ms. Without the 20 seeds (not shippable: they are the outputs users read) the
  preview ratio was 1.015.
- Per-call work (row 6: tens of microseconds per \`check\` or \`diff\`) and console output (no progress line
  in a preview) were not where the time went.

What changed: the REST client is loaded on first use (rest/lazy.ts, from sdk/functions.ts and
provider/common/context.ts); while a class registers its resource, the SDK's promise-leak traces, which only a
leak report under \`PULUMI_DEBUG_PROMISE_LEAKS\` reads, are not formatted (sdk/leakTraces.ts), and with that
variable set they are formatted as before. Every check is unchanged. The row of 2a with the variable set shows
the lazy loading alone.
`;
}

/** Row 9's commands: key in the results, and how the report names it. */
const PLUGIN_COMMANDS = /** @type {const} */ ([
  ["create", "`pulumi preview`, clusters to create"],
  ["up", "`pulumi up` (fast emulator, poll 100 ms)"],
  ["noChange", "`pulumi preview --expect-no-changes`"],
  ["refresh", "`pulumi refresh --expect-no-changes`"],
]);

/**
 * The baseline and target of each of row 9's commands: the previews against the minimal plugin that answers
 * from memory (what any Node.js provider plugin costs), `up` and `refresh`, whose time is mostly the service's,
 * against the minimal plugin that sends the service the same requests.
 * @type {Record<string, { against: "pluginVsMinimal" | "pluginVsRest"; name: string; target: number }>}
 */
const PLUGIN_TARGETS = {
  create: { against: "pluginVsMinimal", name: "minimal plugin", target: 1.1 },
  noChange: { against: "pluginVsMinimal", name: "minimal plugin", target: 1.1 },
  up: { against: "pluginVsRest", name: "minimal plugin sending the same requests", target: 1.15 },
  refresh: { against: "pluginVsRest", name: "minimal plugin sending the same requests", target: 1.15 },
};
/** Row 9's targets of the plugin process against the minimal plugin's: peak RSS and first `check` answered. */
const PLUGIN_PROCESS_TARGET = 1.25;

/**
 * Row 9's lines of the summary table: each command of the plugin path against its baseline (`PLUGIN_TARGETS`),
 * the dynamic path for information; then the plugin process's peak memory and start-up against the minimal
 * plugin's.
 * @param {any} engine `results.engine`, with `plugin`
 * @returns {string[][]}
 */
export function pluginSummaryRows(engine) {
  const g = engine.plugin;
  const n = g.resources;
  const quick = engine.settings.quick;
  const { oursPlugin: plugin, oursDynamic: dynamic, minimalPlugin: minimal } = g.sides;
  const verdict = (/** @type {number} */ ratio, /** @type {number} */ target) =>
    quick ? "quick run: no verdict" : ratio <= target ? "met" : "**missed**";
  const rss = plugin.upPeakRssMb / minimal.upPeakRssMb;
  const start = plugin.firstCheckMs / minimal.firstCheckMs;
  return [
    ...PLUGIN_COMMANDS.map(([key, label]) => {
      const { against, name, target } = PLUGIN_TARGETS[key];
      const vsBaseline = g[against][key];
      const vsDynamic = g.pluginVsDynamic[key];
      return [
        "9",
        `plugin path: ${label}, ${n} clusters (${key === "up" ? g.upRounds : g.rounds} rounds) (h)`,
        seconds(vsBaseline.ours),
        `${name}: ${seconds(vsBaseline.baseline)}; dynamic path (\`Kaas\`): ${seconds(vsDynamic.baseline)}`,
        `${pairedRatio(vsBaseline)} vs ${name}; ${pairedRatio(vsDynamic)} vs dynamic`,
        `≤ ${fixed(target)}`,
        verdict(vsBaseline.ratio, target),
      ];
    }),
    [
      "9",
      `plugin process: peak RSS (kernel \`VmHWM\`) during the \`pulumi up\` of ${n} clusters (median of ${g.upRounds})`,
      `${fixed(plugin.upPeakRssMb, 1)} MB`,
      `minimal plugin's process: ${fixed(minimal.upPeakRssMb, 1)} MB; dynamic-provider process: ${fixed(dynamic.upPeakRssMb, 1)} MB`,
      `${fixed(rss)} (+${fixed(plugin.upPeakRssMb - minimal.upPeakRssMb, 1)} MB) vs minimal plugin; ${fixed(plugin.upPeakRssMb / dynamic.upPeakRssMb)} vs dynamic`,
      `≤ ${fixed(PLUGIN_PROCESS_TARGET)}`,
      verdict(rss, PLUGIN_PROCESS_TARGET),
    ],
    [
      "9",
      "plugin process: first `check` answered after the process started, previews (median)",
      `${int(plugin.firstCheckMs)} ms`,
      `minimal plugin's process: ${int(minimal.firstCheckMs)} ms; dynamic-provider process: ${int(dynamic.firstCheckMs)} ms`,
      `${fixed(start)} vs minimal plugin`,
      `≤ ${fixed(PLUGIN_PROCESS_TARGET)}`,
      verdict(start, PLUGIN_PROCESS_TARGET),
    ],
  ];
}

/**
 * One row's summary lines as a table of their own (`node bench/run.mjs --only plugin|archive`).
 * @param {string[][]} rows
 */
export const summaryTable = (rows) =>
  table([["#", "Measurement", "Ours", "Baseline", "Ratio", "Target", "Result"], ...rows]);

/**
 * Row 9's section of the details (also printed alone by `node bench/run.mjs --only plugin`).
 * @param {any} engine `results.engine`, with `plugin`
 */
export function pluginDetails(engine) {
  const g = engine.plugin;
  const n = g.resources;
  const { versions, settings } = engine;
  const sides = /** @type {const} */ (["oursPlugin", "oursDynamic", "minimalPlugin", "restPlugin"]);
  const runRows = [
    [
      "Command",
      "Ours, plugin: runs (s)",
      "Ours, dynamic: runs (s)",
      "Minimal plugin: runs (s)",
      "Minimal plugin, same requests: runs (s)",
      "Plugin / dynamic: median of rounds (range)",
      "Plugin / minimal plugin",
      "Plugin / minimal plugin, same requests",
    ],
    ...PLUGIN_COMMANDS.map(([key, label]) => [
      label,
      runs(g.sides.oursPlugin.timings[key]),
      runs(g.sides.oursDynamic.timings[key]),
      runs(g.sides.minimalPlugin.timings[key]),
      runs(g.sides.restPlugin.timings[key]),
      pairedRatio(g.pluginVsDynamic[key]),
      pairedRatio(g.pluginVsMinimal[key]),
      pairedRatio(g.pluginVsRest[key]),
    ]),
  ];
  const perSide = (/** @type {(s: any) => string} */ f) => sides.map((side) => f(g.sides[side]));
  const mb = (/** @type {number | null} */ x) => (x === null ? "—" : `${fixed(x, 1)} MB`);
  const msText = (/** @type {number | null} */ x) => (x === null ? "—" : `${int(x)} ms`);
  const rpcs = (/** @type {Record<string, number>} */ perResource) =>
    Object.entries(perResource)
      .map(([method, count]) => `${count} \`${method}\``)
      .join(", ") || "none";
  const calls = (/** @type {Record<string, number> | undefined} */ perResource) =>
    perResource && Object.keys(perResource).length > 0
      ? Object.entries(perResource)
          .map(([shape, count]) => `${count} \`${shape}\``)
          .join(", ")
      : "none";
  const sideRows = [
    ["Per run, median", "Ours, plugin", "Ours, dynamic", "Minimal plugin", "Minimal plugin, same requests"],
    [
      "provider process: peak RSS, `pulumi up`, each run",
      ...perSide((s) => `${s.upPeakRssRunsMb.join(", ")} MB`),
    ],
    ["provider process: peak RSS, preview of the creation", ...perSide((s) => mb(s.previewPeakRssMb))],
    [
      "provider process: first `check` answered after process start, previews",
      ...perSide((s) => msText(s.firstCheckMs)),
    ],
    [
      "provider process: CPU time, preview of the creation",
      ...perSide((s) => msText(s.providerCpuMs.create)),
    ],
    ["provider process: CPU time, `pulumi up`", ...perSide((s) => msText(s.providerCpuMs.up))],
    ["provider process: CPU time, `pulumi refresh`", ...perSide((s) => msText(s.providerCpuMs.refresh))],
    ["program process: CPU time, preview of the creation", ...perSide((s) => msText(s.programCpuMs))],
    ...PLUGIN_COMMANDS.map(([key, label]) => [
      `RPCs served per resource: ${label}`,
      ...perSide((s) => rpcs(s.rpcsPerResource[key])),
    ]),
    [
      "service calls per resource, `pulumi up`",
      calls(g.requestsPerResource.up.oursPlugin),
      calls(g.requestsPerResource.up.oursDynamic),
      "none",
      calls(g.requestsPerResource.up.restPlugin),
    ],
    [
      "service calls per resource, `pulumi refresh`",
      calls(g.requestsPerResource.refresh.oursPlugin),
      calls(g.requestsPerResource.refresh.oursDynamic),
      "none",
      calls(g.requestsPerResource.refresh.restPlugin),
    ],
    ["runs without a report of the provider process", ...perSide((s) => String(s.runsWithoutProviderReport))],
  ];
  return `## Row 9: the provider plugin path

Engine: \`pulumi\` ${versions.cli}, \`pulumi-language-nodejs\` ${versions.languageHost}, Node ${versions.node};
\`@pulumi/pulumi\` ${versions.sdk}. Load of the machine (1-minute average, sampled before each run, median and
range): ${loadText(g.load)}.${
    settings.quick
      ? "\n\n**Quick run** (`--quick`): fewer resources and rounds; a check of the harness, not figures."
      : ""
  }

How (bench/lib/plugin.mjs): three programs (bench/programs) declare ${n} resources with the same arguments:
\`ours\` this package's \`Kaas\` (the dynamic path, as in rows 2 and 7), \`plugin\` the same clusters as
\`new pulumi.CustomResource("vendor-container:index:Kaas", name, args)\`, served by the installed package's
\`pulumi-resource-vendor-container\` (its \`Pulumi.yaml\` names \`.tools/bench/node_modules/.bin\`), and
\`minimal-plugin\` resources of a provider plugin of one type written on \`@pulumi/pulumi/provider\`'s \`main\`
(bench/programs/minimal-plugin/plugin: \`check\` returns the inputs, \`diff\` no change, \`create\` an id and the
inputs, \`read\` the state; no I/O), and the same minimal plugin in a stack that sets \`minimal:baseUrl\`, where
it sends the service the requests this package's plugin sends, with plain \`fetch\` (a create lists by owner tag
and by name, posts, polls until \`Active\` and downloads the kubeconfig; a read gets the cluster and its
kubeconfig): the baseline of \`up\` and \`refresh\`, whose time is mostly the service's. The stacks have the
same configuration (\`vendor:*\` and \`vendor-container:*\` against the emulator, poll 100 ms). Each command runs
on the four sides one after the other, the order rotating every round; each \`pulumi up\` but the last is
followed by an untimed \`pulumi destroy\` of all four. Ratios are the median of the rounds' ratios (range). The probe (bench/children/probe.cjs) recognises the
plugins' processes by their executable and reads their peak RSS and RPC calls as it does the dynamic-provider
process's.

${table(runRows)}

${table(sideRows)}

(h) What differs besides the provider's process. The \`plugin\` program declares only the clusters' arguments:
it reads no output, so it names none, where the dynamic path's \`Kaas\` also registers the output names it seeds
and its creation scope. The plugin accepts previews (\`supportsPreview\` in its \`Configure\` answer), so the
engine calls its \`create\` in \`pulumi preview\` too; neither the dynamic provider nor the minimal plugin's
\`@pulumi/pulumi/provider\` server does, so the engine previews their creates from the checked inputs without a
call (the RPC counts above). In \`pulumi up\`, the dynamic path's program also releases each cluster's creation tag once the engine
has recorded its id (sdk/persisted.ts: the \`PUT\` and the further \`GET\`s in its service calls above), which the
plugin path does at the cluster's next update (docs/languages.md "Every language: the provider plugin"): the \`up\` ratio
compares unequal service work.
`;
}

/** Row 10's target (issue 44): the release's executable against the plugin run by Node.js from node_modules. */
const ARCHIVE_TARGET = 1.1;

/**
 * Row 10's lines of the summary table: the release's executable's first `check` and peak RSS against the
 * npm-installed plugin's.
 * @param {any} engine `results.engine`, with `archive`
 * @returns {string[][]}
 */
export function archiveSummaryRows(engine) {
  const a = engine.archive;
  const verdict = (/** @type {number} */ ratio) =>
    engine.settings.quick ? "quick run: no verdict" : ratio <= ARCHIVE_TARGET ? "met" : "**missed**";
  return [
    [
      "10",
      `release executable (linux-amd64, ${fixed(a.executableMb, 1)} MB): first \`check\` answered after the process started (median of ${a.firstCheckMs.runs.archive.length})`,
      `${fixed(a.firstCheckMs.archive, 0)} ms`,
      `npm-installed plugin run by Node.js: ${fixed(a.firstCheckMs.npm, 0)} ms`,
      pairedRatio(a.firstCheck),
      `≤ ${fixed(ARCHIVE_TARGET)}`,
      verdict(a.firstCheck.ratio),
    ],
    [
      "10",
      `release executable: peak RSS (kernel \`VmHWM\`) during the \`pulumi up\` of ${a.resources} clusters (median of ${a.peakRssMb.runs.archive.length})`,
      `${fixed(a.peakRssMb.archive, 1)} MB`,
      `npm-installed plugin: ${fixed(a.peakRssMb.npm, 1)} MB`,
      fixed(a.peakRssMb.ratio),
      `≤ ${fixed(ARCHIVE_TARGET)}`,
      verdict(a.peakRssMb.ratio),
    ],
  ];
}

/**
 * Row 10's section of the details (also printed alone by `node bench/run.mjs --only archive`).
 * @param {any} engine `results.engine`, with `archive`
 */
export function archiveDetails(engine) {
  const a = engine.archive;
  const ms = (/** @type {number[]} */ xs) => xs.map(int).join(", ");
  const mbs = (/** @type {number[]} */ xs) => xs.map((x) => fixed(x, 1)).join(", ");
  return `## Row 10: the release's plugin executable

Load of the machine (1-minute average, sampled before each start and run, median and range): ${loadText(a.load)}.

How (bench/lib/archive.mjs): the linux-amd64 archive that \`npm run release\` writes, unpacked into
\`.tools/bench/archive\`, against the link npm made in the benchmark's workspace (\`node_modules/.bin\`, the plugin
of row 9). Start-up: the harness plays the engine (starts the process with an engine address, reads its port,
sends \`configure\` and the \`check\` of one cluster), sides alternating after one untimed start of each.
Peak RSS: a \`pulumi up\` of ${a.resources} clusters through the engine with the programs \`plugin-archive\` and
\`plugin\` (the same clusters; their \`Pulumi.yaml\` name the two plugin folders), read by the probe inside each
plugin process; destroyed between runs.

${table([
  ["Per run", "Release executable", "npm-installed plugin", "Ratio (median of rounds, range)"],
  [
    "first `check` answered (ms)",
    ms(a.firstCheckMs.runs.archive),
    ms(a.firstCheckMs.runs.npm),
    pairedRatio(a.firstCheck),
  ],
  [
    "peak RSS during `up` (MB)",
    mbs(a.peakRssMb.runs.archive),
    mbs(a.peakRssMb.runs.npm),
    fixed(a.peakRssMb.ratio),
  ],
  ["`pulumi up` (s)", runs(a.up.ours), runs(a.up.baseline), pairedRatio(a.up)],
])}
`;
}
