// @ts-check
/** Renders the results as markdown: a summary table (ours, baseline, ratio, target), then the details. */
import {
  archiveDetails,
  archiveSummaryRows,
  engineDetails,
  engineSummaryRows,
  pluginDetails,
  pluginSummaryRows,
} from "./report-engine.mjs";

const NOT_MEASURED =
  "not measured: the Pulumi engine is missing from .tools/bin (build it with `bash scripts/engine.sh`)";

/** @param {number} n */
const int = (n) => n.toLocaleString("en-US");
/** @param {number} x */
const ratio = (x) =>
  !Number.isFinite(x) ? "—" : x >= 10 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toPrecision(2);
/** @param {boolean} ok */
const verdict = (ok) => (ok ? "met" : "**missed**");
/** @param {string} s */
const cell = (s) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
/** @param {string[][]} rows */
const table = (rows) =>
  [rows[0], rows[0].map(() => "---"), ...rows.slice(1)]
    .map((r) => `| ${r.map(cell).join(" | ")} |`)
    .join("\n");

/** @param {{ lists: number; all: number }} c */
const listsAll = (c) => `${c.lists} / ${c.all}`;

/**
 * Row 8's lines of the summary table: one per reading the provider is expected to serve with filters
 * (`membership`, the documented one, and `whole`).
 * @param {any} lookup `measureLookup()`'s result
 * @returns {string[][]}
 */
export function lookupSummaryRows(lookup) {
  return lookup.readings
    .filter((/** @type {any} */ r) => !r.informational)
    .map((/** @type {any} */ r) => [
      "8",
      `create lookup, ${lookup.kind}, filters \`${r.reading}\`: list requests / all requests of one create, ${lookup.others} other clusters in the project`,
      listsAll(r.crowded),
      `empty project: ${listsAll(r.empty)}`,
      `${ratio(r.crowded.lists / r.empty.lists)} (lists)`,
      "as many lists as in an empty project",
      verdict(r.crowded.lists <= r.empty.lists),
    ]);
}

/**
 * Row 8's section of the markdown report (also printed alone by `node bench/run.mjs --only lookup`).
 * @param {any} lookup `measureLookup()`'s result
 */
export function lookupDetails(lookup) {
  const rows = [
    [
      "Reading",
      "Empty: lists / all",
      `${lookup.others} others: lists / all`,
      "List requests, empty",
      `List requests, ${lookup.others} others`,
    ],
    ...lookup.readings.map((/** @type {any} */ r) => [
      r.informational ? `\`${r.reading}\` (information)` : `\`${r.reading}\``,
      listsAll(r.empty),
      listsAll(r.crowded),
      r.empty.listRequests.join(", "),
      r.crowded.listRequests.join(", "),
    ]),
  ];
  const breakdown = lookup.readings[0].crowded;
  return `## Row 8: create lookup in a crowded project

Requests of one \`${lookup.kind}\` create through the provider module (\`provider("${lookup.kind}").create\`, after an
uncounted \`check\`), counted in the emulator's request log: lists are GETs of the kaas collection, before the
POST (the idempotent create's lookup for an interrupted create of the same resource: \`findCreated\`); all is
every request of the create. Each case runs against its own emulator, with fresh clients, every emulator
duration ${lookup.durationMs} ms (the cluster is \`Active\` at the first poll, so the counts do not depend on timing)
and a poll interval of ${lookup.pollIntervalMs} ms; the crowded project holds ${lookup.others} seeded \`Active\` clusters of other
resources (\`emulator.seed\`). Readings of the \`filter\` parameter (\`emulator.updateConfig({ wire: { filters } })\`):
\`membership\` (documented: \`eq\` on an array matches an element), \`whole\` (\`eq\` compares the whole array),
\`ignored\` (every filter ignored), \`refused\` (any filter answered 400).

${table(rows)}

List requests: \`tag\` filtered on the creation tag, \`name\` on the name, \`none\` unfiltered; a status when it was not
200, \`@offset\` for a later page (pages of 100). Under \`membership\` with ${lookup.others} others, the create's other requests
are ${breakdown.posts} POST, ${breakdown.clusterGets} GETs of the new cluster and ${breakdown.other.map((/** @type {string} */ o) => `\`${o}\``).join(", ")} (paths below the project's provider namespace).
Under \`ignored\` and \`refused\` the provider reads the whole list, whose pages grow with the project; under
\`refused\` the refusal is remembered per client, so a later create of the same process skips the refused request.
`;
}

/**
 * @param {any} results the object written to latest.json
 * @returns {{ summary: string; markdown: string }}
 */
export function render(results) {
  const { serialization, waiter, hotPath, memory, machine } = results;
  const rows = [["#", "Measurement", "Ours", "Baseline", "Ratio", "Target", "Result"]];

  // ---- row 1 ----
  const obviousError = serialization.kinds.find((k) => k.baselineObvious.error)?.baselineObvious.error;
  for (const k of serialization.kinds) {
    const compiled = k.baselineCompiledValidator;
    const obvious = k.baselineObvious.error
      ? "obvious: cannot be serialized (a)"
      : `obvious: ${int(k.baselineObvious.bytes)} B`;
    const comp = compiled.error
      ? "compiled validator: cannot be serialized"
      : `compiled validator: ${int(compiled.bytes)} B`;
    rows.push([
      "1",
      `\`__provider\` bytes, ${k.kind}`,
      k.ours.error ? `error: ${k.ours.error}` : `${int(k.ours.bytes)} B`,
      `${obvious}; ${comp}`,
      compiled.bytes && k.ours.bytes
        ? `${ratio(k.ours.bytes / compiled.bytes)} (vs compiled validator)`
        : "—",
      "< 2 KB",
      verdict(k.ours.bytes !== undefined && k.ours.bytes < 2048),
    ]);
  }
  for (const k of serialization.kinds) {
    const s = k.state;
    rows.push([
      "1",
      `state bytes per resource, ${k.kind} (computed (b))`,
      s.ours === null ? "—" : `${int(s.ours)} B`,
      `obvious: ${s.baselineObvious === null ? "n/a" : `${int(s.baselineObvious)} B`}; compiled validator: ${
        s.baselineCompiledValidator === null ? "n/a" : `${int(s.baselineCompiledValidator)} B`
      }`,
      s.ours !== null && s.baselineCompiledValidator
        ? `${ratio(s.ours / s.baselineCompiledValidator)} (vs compiled validator)`
        : "—",
      "—",
      "—",
    ]);
  }

  // ---- rows 2-4 and 7 (9 and 10 below) ----
  if (results.engine) rows.push(...engineSummaryRows(results.engine));
  else {
    const why = results.engineMissing ? NOT_MEASURED : "not measured: run without `--skip-engine`";
    for (const [row, what] of [
      ["2", "`pulumi preview` / `pulumi refresh`, 100 clusters vs 100 minimal dynamic resources"],
      ["3", "`pulumi up`, one cluster provisioning 30 s vs a minimal resource sleeping 30 s"],
      ["4", "`pulumi up`, 50 clusters at once vs one"],
      ["7", "dynamic-provider process: first call, peak RSS"],
      ["9", "plugin path: `pulumi preview`, `up`, `refresh` of 100 clusters vs the dynamic path; plugin RSS"],
      ["10", "the release's plugin executable: first `check`, peak RSS, vs the npm-installed plugin"],
    ])
      rows.push([row, what, why, "—", "—", "—", "not measured"]);
  }

  // ---- row 5 ----
  for (const d of waiter.simulation) {
    const ok = d.ours.lagS.max <= 10 && d.oursNeverMoreCallsThanFixed && d.oursNeverMoreCallsThanDoubling;
    rows.push([
      "5",
      `waiter, ${d.minutes} min provisioning: GET calls (mean of 20 ready times) · max lag`,
      `${d.ours.calls.mean} · ${d.ours.lagS.max} s`,
      `fixed 10 s: ${d.fixed.calls.mean} · ${d.fixed.lagS.max} s; doubling: ${d.doubling.calls.mean} · ${d.doubling.lagS.max} s`,
      `${ratio(d.ours.calls.mean / d.fixed.calls.mean)} / ${ratio(d.ours.calls.mean / d.doubling.calls.mean)} (calls)`,
      "max lag ≤ 10 s, calls ≤ both baselines",
      verdict(ok),
    ]);
  }
  for (const t of waiter.throttle) {
    const honoured = t.gapsInWindowS.every((/** @type {number} */ g) => g >= 30);
    const outcome = t.outcome.ok
      ? `ready detected, lag ${t.lagS} s`
      : `create fails after the poll's call deadline (c)`;
    rows.push([
      "5",
      `429 + \`Retry-After: 30\` to every GET for ${t.throttleS} s (provisioning ${t.provisioningS / 60} min)`,
      `${t.callsInWindow} calls in the window, gaps ${t.gapsInWindowS.join(", ")} s; ${outcome}`,
      `ignoring Retry-After: fixed 10 s ${t.ignoringRetryAfter.fixedCallsInWindow}, doubling ${t.ignoringRetryAfter.doublingCallsInWindow}`,
      `${ratio(t.callsInWindow / t.ignoringRetryAfter.fixedCallsInWindow)} / ${ratio(t.callsInWindow / t.ignoringRetryAfter.doublingCallsInWindow)} (calls)`,
      "honours Retry-After",
      t.outcome.ok
        ? verdict(honoured)
        : `${verdict(honoured)}: the waiter waits as told, then gives the wait up at the call deadline (c)`,
    ]);
  }

  // ---- row 6 ----
  for (const [name, label] of [
    ["check", "check"],
    ["diff", "diff (no change)"],
  ]) {
    const ours = hotPath.ours[name];
    const base = hotPath.baseline[name];
    rows.push([
      "6",
      `${label}, ${hotPath.pools} pools: median µs per call`,
      `${ours.medianUs} µs (p99 ${ours.p99Us})`,
      `obvious provider's ${name} (d): ${base.medianUs} µs`,
      ratio(ours.medianUs / base.medianUs),
      "< 1000 µs",
      verdict(ours.medianUs < 1000),
    ]);
  }
  rows.push([
    "6",
    `provider process peak RSS, ${memory.ours.resources} resources (median of ${memory.runs})`,
    `${memory.ours.peakRssMb} MB`,
    `emulator-only process: ${memory.baseline.peakRssMb} MB`,
    `${ratio(memory.ours.peakRssMb / memory.baseline.peakRssMb)} (+${(memory.ours.peakRssMb - memory.baseline.peakRssMb).toFixed(1)} MB)`,
    "< 200 MB",
    verdict(memory.ours.peakRssMb < 200),
  ]);

  // ---- row 8 ----
  if (results.lookup) rows.push(...lookupSummaryRows(results.lookup));

  // ---- row 9 (its not-measured line is above, with the other engine rows) ----
  if (results.engine?.plugin) rows.push(...pluginSummaryRows(results.engine));
  if (results.engine?.archive) rows.push(...archiveSummaryRows(results.engine));

  const summary = table(rows);

  // ---- details ----
  const firstOf = (/** @type {string} */ key) => serialization.kinds.find((k) => k[key].error)?.[key].error;
  const serializationRows = [
    [
      "Kind",
      "Ours",
      "Ours: requires stable subpath",
      "Ours: contains token",
      "Obvious",
      "Client only",
      "Compiled validator",
      "Compiled: contains token",
      "State payload without `__provider`",
    ],
    ...serialization.kinds.map((k) => [
      k.kind,
      k.ours.error ? "error" : `${int(k.ours.bytes)} B`,
      k.ours.requiresSubpath ? "yes" : "no",
      k.ours.containsSecret ? "**yes**" : "no",
      k.baselineObvious.error ? "throws" : `${int(k.baselineObvious.bytes)} B`,
      k.baselineClientOnly.error ? "throws" : `${int(k.baselineClientOnly.bytes)} B`,
      k.baselineCompiledValidator.error ? "throws" : `${int(k.baselineCompiledValidator.bytes)} B`,
      k.baselineCompiledValidator.containsSecret ? "**yes**" : "no",
      `${int(k.state.payloadBytes)} B`,
    ]),
  ];
  const waiterRows = [
    [
      "Provisioning",
      "Schedule",
      "GET calls mean (min–max)",
      "Lag mean",
      "Lag max",
      "Ours ≤ baseline at every ready time",
    ],
  ];
  for (const d of waiter.simulation) {
    for (const [name, label, flag] of [
      ["ours", "ours (default)", ""],
      ["fixed", "fixed 10 s", d.oursNeverMoreCallsThanFixed ? "yes" : "**no**"],
      ["doubling", "200 ms doubling to 10 s", d.oursNeverMoreCallsThanDoubling ? "yes" : "**no**"],
    ]) {
      const s = d[name];
      waiterRows.push([
        `${d.minutes} min`,
        label,
        `${s.calls.mean} (${s.calls.min}–${s.calls.max})`,
        `${s.lagS.mean} s`,
        `${s.lagS.max} s`,
        flag,
      ]);
    }
  }
  const matching = waiter.crossCheck.filter((c) => c.matches).length;
  const crossRows = [
    [
      "Provisioning",
      "Ready offset",
      "GET polls end to end",
      "Simulated",
      "Lag end to end",
      "Simulated",
      "All requests",
    ],
    ...waiter.crossCheck.map((c) => [
      `${c.minutes} min`,
      `${c.offsetS} s`,
      String(c.e2ePolls),
      String(c.simPolls),
      `${c.e2eLagS} s`,
      `${c.simLagS} s`,
      String(c.e2eRequests),
    ]),
  ];
  const throttleText = waiter.throttle
    .map(
      (t) =>
        `- Throttled for ${t.throttleS} s, provisioning ${t.provisioningS} s: ${t.polls} GETs of the cluster at ` +
        `${t.pollTimesS.slice(0, 12).join(", ")}${t.pollTimesS.length > 12 ? ", …" : ""} s after the create ` +
        `(${t.throttled} answered 429); outcome: ${t.outcome.ok ? `created, lag ${t.lagS} s` : `failed: ${t.outcome.error}`}.`,
    )
    .join("\n");
  const hotRows = [
    ["Call", "Median µs", "p99 µs", "Iterations"],
    [
      "ours: check (previous inputs → same inputs)",
      hotPath.ours.check.medianUs,
      hotPath.ours.check.p99Us,
      hotPath.ours.check.iterations,
    ],
    [
      "ours: diff, no change",
      hotPath.ours.diff.medianUs,
      hotPath.ours.diff.p99Us,
      hotPath.ours.diff.iterations,
    ],
    [
      "ours: diff, one pool changed",
      hotPath.ours.diffWithChange.medianUs,
      hotPath.ours.diffWithChange.p99Us,
      hotPath.ours.diffWithChange.iterations,
    ],
    [
      "baseline: ajv validation of the wire body",
      hotPath.baseline.check.medianUs,
      hotPath.baseline.check.p99Us,
      hotPath.baseline.check.iterations,
    ],
    [
      "baseline: JSON comparison of wire bodies",
      hotPath.baseline.diff.medianUs,
      hotPath.baseline.diff.p99Us,
      hotPath.baseline.diff.iterations,
    ],
  ].map((r) => r.map(String));
  const memRows = [
    ["Process", "Peak RSS (median)", "Runs", "Peak heap used", "Emulator requests", "Wall time"],
    [
      "providers + emulator, 100 resources",
      `${memory.ours.peakRssMb} MB`,
      memory.ours.runsPeakRssMb.join(", "),
      `${memory.ours.peakHeapUsedMb} MB`,
      String(memory.ours.requests),
      `${memory.ours.ms} ms`,
    ],
    [
      "emulator only (baseline)",
      `${memory.baseline.peakRssMb} MB`,
      memory.baseline.runsPeakRssMb.join(", "),
      `${memory.baseline.peakHeapUsedMb} MB`,
      String(memory.baseline.requests),
      `${memory.baseline.ms} ms`,
    ],
  ];

  const r3 = waiter.row3Context;
  const measuredDefault = results.engine?.provisioning.defaultInterval.runs;
  const row3Text = [
    `The waiter alone (simulated as in row 5) predicts for a ${r3.provisioningS} s provisioning with the default poll`,
    `interval: readiness seen ${r3.ours.lagS.mean} s late on average and ${r3.ours.lagS.max} s at most (${r3.ours.calls.mean} GETs), depending`,
    "on where readiness falls between two polls.",
    measuredDefault
      ? "Through the engine (row 3, default interval): " +
        measuredDefault
          .map((/** @type {any} */ r) => `provisioning ${r.provisioningS} s, seen ${r.lagS} s late`)
          .join("; ") +
        ". The first poll comes one interval after the create's answer, then one every interval: a provisioning " +
        "that ends just after a poll is seen almost one interval late. Set `vendor:pollIntervalMs` lower when " +
        "that matters more than the extra GETs (row 5 counts them)."
      : "Not measured through the engine in this run.",
  ].join("\n");

  const markdown = `# Benchmark: the provider's own cost

Generated by \`npm run bench\` (bench/run.mjs) on ${machine.date}. Absolute times are noisy: read the ratios
and medians. This is not a test: \`npm test\` asserts no timing.

Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.totalMemoryGb} GB RAM, ${machine.platform}, Node ${machine.node}${machine.commit ? `, commit ${machine.commit}` : ""}${
    machine.uncommitted?.length ? ` plus uncommitted changes to ${machine.uncommitted.join(", ")}` : ""
  }. Load (1-minute average) ${machine.loadAtStart ?? "?"} at the start, ${machine.loadAtEnd ?? "?"} at the end.${
    results.engine
      ? `\nEngine: \`pulumi\` ${results.engine.versions.cli}, \`pulumi-language-nodejs\` ${results.engine.versions.languageHost}, Node ${results.engine.versions.node} (programs and providers), \`@pulumi/pulumi\` ${results.engine.versions.sdk}.`
      : ""
  }

${summary}

(a) The obvious baseline (methods closing over \`validateSchema\` from schemas/validate.ts and a module-level
\`VendorContainerClient\`) cannot be serialized by Pulumi, nor can a client alone; the compiled-validator
variant (a validator compiled by a module-level \`new Ajv()\`, no client) is the closest one that serializes,
and the ratios use it. Both fail on the client's transport (rest/transport.ts), whose request closure names a
timer declared later in the same function, which Pulumi's closure serializer cannot capture. (While the client
used axios, the obvious one failed in the serializer itself, whose \`isImportStarResult\` evaluates
\`key in obj.default\` for any captured object with a \`default\` member, as ajv's draft-07 meta-schema has, and
the client alone on axios's bound functions.) Errors (Kaas; the other kinds fail alike):

\`\`\`text
obvious: ${obviousError ?? "(serialized)"}

client only: ${firstOf("baselineClientOnly") ?? "(serialized)"}
\`\`\`

(b) Computed, not read from \`pulumi stack export\` (no engine): JSON of the checked inputs and the outputs of
one resource created against the emulator, each carrying \`__provider\` (the engine stores it in both), the
kubeconfig excluded.

(c) Each GET of the waiter is one HTTP call with its own deadline (\`callDeadlineMs\`, 120 s by default),
within which 429s are retried as \`Retry-After\` says. A throttle longer than that deadline makes one GET give
up; the waiter counts that as "still waiting" and sleeps at least the \`Retry-After\` the service last gave
before the next GET, until the wait's own deadline (\`timeouts.create\`).

(d) The work the obvious provider does in the same call, run in-process: ajv validation of the wire body for
\`check\`, a JSON comparison of the wire bodies for \`diff\`.

${results.engine ? engineDetails(results.engine) : "## Rows 2–4 and 7: not measured\n"}
Row 3 and the waiter: ${row3Text}

## Row 1: serialized provider

Ours is serialized from a copy of the package under a fake program's node_modules (as users install it),
with \`runtime.serializeFunction(() => provider, { allowSecrets: true })\` as \`dynamic.Resource\` does, in a
process started there with \`--preserve-symlinks\`. The baselines are in bench/children/baseline-provider.cjs.

${table(serializationRows)}

## Row 5: waiter

Fake clock; time 0 is the create's \`InCreation\` answer; ready at provisioning + offset, offsets
${waiter.offsetsS[0]}–${waiter.offsetsS.at(-1)} s in steps of ${waiter.offsetsS[1]} s (20 runs per cell); a GET takes no time.
Ours is \`VendorContainerClient.waitUntilSettled\` with the default settings (interval ${waiter.pollIntervalS} s, first
poll one interval after the create); fixed 10 s is the same \`waitFor\` polling at once, then every 10 s; doubling
polls at once, then after 200 ms, 400 ms, … capped at 10 s. Lag is the time from ready to the poll that sees it.

${table(waiterRows)}

Cross-check through the real create path (\`KaasProvider.create\` with an injected client, against the emulator
on the same fake clock, counting the GETs it received): ${matching} of ${waiter.crossCheck.length} runs match the simulation.

${table(crossRows)}

\`Retry-After\` (end to end, the emulator answers 429 with \`Retry-After: 30\` to every GET from the create's
answer on):

${throttleText}

## Row 6: hot path and memory

\`check\` and \`diff\` of a ${hotPath.pools}-pool cluster through the Kaas shell (as the engine's provider process
calls it), each call timed alone after ${"2,000"} warm-up calls.

${table(hotRows)}

Peak RSS sampled every 5 ms by the child itself (bench/children/memory.mjs). Both children run the emulator
in-process (its state grows with the resources, so the difference over-states our cost); the engine's
provider host (gRPC, \`@pulumi/pulumi\`) is not loaded in either.

${table(memRows)}

${results.lookup ? lookupDetails(results.lookup) : "## Row 8: not measured\n"}
${results.engine?.plugin ? pluginDetails(results.engine) : "## Row 9: not measured\n"}
${results.engine?.archive ? archiveDetails(results.engine) : "## Row 10: not measured\n"}`;
  return { summary, markdown };
}
