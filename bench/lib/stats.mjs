// @ts-check
/**
 * Statistics of the engine rows: each row runs ours and its baseline alternately, one pair per round, and
 * reports both sides' medians and ranges and the ratio. The headline ratio is the median of the per-round
 * ratios (each pair ran back to back, so a change of the machine's load between rounds cancels out); their
 * range is the spread.
 */
import fs from "node:fs";
import { max, median, min, round } from "./common.mjs";

/** @param {number[]} ms */
export function timings(ms) {
  return {
    runsS: ms.map((x) => round(x / 1000, 2)),
    medianS: round(median(ms) / 1000, 2),
    minS: round(min(ms) / 1000, 2),
    maxS: round(max(ms) / 1000, 2),
  };
}

/** @typedef {ReturnType<typeof timings>} Timings */

/**
 * @param {number[]} ours
 * @param {number[]} baseline same length: `ours[i]` and `baseline[i]` ran in the same round
 */
export function paired(ours, baseline) {
  const ratios = ours.map((x, i) => x / baseline[i]);
  return {
    ours: timings(ours),
    baseline: timings(baseline),
    ratio: round(median(ratios), 3),
    ratioMin: round(min(ratios), 3),
    ratioMax: round(max(ratios), 3),
    ratioOfMedians: round(median(ours) / median(baseline), 3),
  };
}

/** @typedef {ReturnType<typeof paired>} Paired */

/** The 1-minute load average now (Linux), or null. */
export function loadNow() {
  try {
    return Number(fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
  } catch {
    return null;
  }
}

/** Collects the load average before each run of a row. */
export class LoadLog {
  constructor() {
    /** @type {number[]} */
    this.samples = [];
  }
  sample() {
    const load = loadNow();
    if (load !== null) this.samples.push(load);
  }
  summary() {
    return this.samples.length === 0
      ? null
      : { median: round(median(this.samples), 2), min: min(this.samples), max: max(this.samples) };
  }
}
