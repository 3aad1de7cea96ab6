// @ts-check
/**
 * Reads a V8 CPU profile (`node --cpu-prof`) of a program or dynamic-provider process and sums it the way the
 * preview investigation needs: time inclusive of a few named frames (the resource constructors,
 * the SDK's `transferProperties` and the stack formatting it triggers, module loading, the provider's
 * `check`), self time by package, and garbage collection.
 */
import fs from "node:fs";

/**
 * @typedef {{ id: number; callFrame: { functionName: string; url: string; lineNumber: number };
 *   children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }} CpuProfile
 */

/** Frames whose inclusive time the report shows: label -> test on `functionName` and `url`. */
const FRAMES = /** @type {const} */ ({
  "resource constructors (the program's `new Kaas`/`new Minimal`)": (
    /** @type {ProfileNode["callFrame"]} */ f,
  ) => (f.functionName === "Kaas" || f.functionName === "Minimal") && !f.url.includes("@pulumi"),
  "SDK `transferProperties` (4 promises per property)": (/** @type {ProfileNode["callFrame"]} */ f) =>
    f.functionName === "transferProperties" && f.url.includes("@pulumi/pulumi/runtime/rpc"),
  "stack formatting (`Error.prepareStackTrace`)": (/** @type {ProfileNode["callFrame"]} */ f) =>
    f.functionName === "prepareStackTraceCallback",
  "loading pulumi-vendor-container (program: SDK; provider: /provider)": (
    /** @type {ProfileNode["callFrame"]} */ f,
  ) =>
    f.url.includes("/node_modules/pulumi-vendor-container/dist/") &&
    (f.url.endsWith("/sdk/index.js") || f.url.endsWith("/provider/index.js")) &&
    f.functionName === "",
  "dynamic provider `check` RPC": (/** @type {ProfileNode["callFrame"]} */ f) =>
    f.functionName === "check" && f.url.includes("cmd/dynamic-provider"),
  "dynamic provider `diff` RPC": (/** @type {ProfileNode["callFrame"]} */ f) =>
    f.functionName === "diff" && f.url.includes("cmd/dynamic-provider"),
});

/** @param {string} url */
function packageOf(url) {
  if (!url) return "(V8 and native)";
  const match = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1];
  if (url.startsWith("node:")) return "(Node.js internals)";
  return "(the program)";
}

/**
 * @param {string} file a `.cpuprofile`
 * @returns {{ wallMs: number; busyMs: number; gcMs: number; frames: Record<string, number>;
 *   packages: { name: string; ms: number }[] }}
 */
export function summarizeProfile(file) {
  /** @type {CpuProfile} */
  const profile = JSON.parse(fs.readFileSync(file, "utf8"));
  /** @type {Map<number, ProfileNode>} */
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  /** @type {Map<number, number>} self ms per node */
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));

  /** @type {Record<string, number>} */
  const frames = Object.fromEntries(Object.keys(FRAMES).map((k) => [k, 0]));
  /** @type {Map<string, number>} */
  const packages = new Map();
  let idle = 0;
  let gc = 0;
  for (const [id, ms] of self) {
    const node = /** @type {ProfileNode} */ (byId.get(id));
    const name = node.callFrame.functionName;
    if (name === "(idle)") idle += ms;
    else if (name === "(garbage collector)") gc += ms;
    else if (name !== "(program)" && name !== "(root)")
      packages.set(packageOf(node.callFrame.url), (packages.get(packageOf(node.callFrame.url)) ?? 0) + ms);
    // Inclusive: every labelled frame on this sample's stack counts it once.
    /** @type {Set<string>} */
    const counted = new Set();
    for (let cur = /** @type {number | undefined} */ (id); cur !== undefined; cur = parent.get(cur)) {
      const frame = /** @type {ProfileNode} */ (byId.get(cur)).callFrame;
      for (const [label, test] of Object.entries(FRAMES)) {
        if (!counted.has(label) && test(frame)) {
          counted.add(label);
          frames[label] += ms;
        }
      }
    }
  }
  const wallMs = (profile.endTime - profile.startTime) / 1000;
  return {
    wallMs,
    busyMs: wallMs - idle,
    gcMs: gc,
    frames,
    packages: [...packages]
      .map(([name, ms]) => ({ name, ms }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 8),
  };
}
