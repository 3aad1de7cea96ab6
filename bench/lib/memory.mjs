// @ts-check
/**
 * Row 6, second half: peak RSS of a provider process holding 100 resources, against a process that only
 * starts the emulator (see children/memory.mjs). Each child runs RUNS times; medians are reported.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import process from "node:process";
import { BENCH, median, round } from "./common.mjs";

const RUNS = 3;
const MB = 1024 * 1024;

/** @param {"providers" | "idle"} mode */
function child(mode) {
  const stdout = execFileSync(process.execPath, [path.join(BENCH, "children", "memory.mjs"), mode], {
    encoding: "utf8",
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
}

/** @param {"providers" | "idle"} mode */
function runs(mode) {
  const results = Array.from({ length: RUNS }, () => child(mode));
  return {
    peakRssMb: round(median(results.map((r) => r.peakRss)) / MB, 1),
    peakHeapUsedMb: round(median(results.map((r) => r.peakHeapUsed)) / MB, 1),
    runsPeakRssMb: results.map((r) => round(r.peakRss / MB, 1)),
    resources: results[0].resources,
    requests: results[0].requests,
    ms: median(results.map((r) => r.ms)),
  };
}

export function measureMemory() {
  return { runs: RUNS, ours: runs("providers"), baseline: runs("idle") };
}
