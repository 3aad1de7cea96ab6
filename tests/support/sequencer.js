// Starts the longest test files first, so that the last minutes of a run are not one long file on one worker.
// Jest orders by the durations it recorded in this checkout's cache; a fresh clone (every CI run) has none,
// and jest then falls back to file size, which starts the longest end-to-end files (small files that drive
// the engine for minutes) after the large unit files, and the static checks last. `durations.json` holds
// what a full run measured (seconds per file, by project, files under 4 s left out); a file jest has timed
// itself goes by that time instead, and a file neither knows goes after the others, largest first. As in
// jest's own order, a file that failed in the last run goes first.
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;
const measured = require("./durations.json");

const ROOT = path.resolve(__dirname, "../..");

class LongestFirst extends Sequencer {
  /** Milliseconds: jest's own record of this file, else the committed measure, else unknown. */
  time(test) {
    const recorded = super.time(test);
    if (recorded !== undefined) return recorded;
    const project = measured[test.context.config.displayName?.name ?? ""] ?? {};
    const seconds = project[path.relative(ROOT, test.path).split(path.sep).join("/")];
    return seconds === undefined ? undefined : seconds * 1000;
  }

  sort(tests) {
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    for (const test of tests) test.duration = this.time(test);
    return tests.sort(
      (a, b) =>
        Number(this.hasFailed(b)) - Number(this.hasFailed(a)) ||
        Number(b.duration !== undefined) - Number(a.duration !== undefined) ||
        (b.duration ?? 0) - (a.duration ?? 0) ||
        size(b) - size(a),
    );
  }
}

module.exports = LongestFirst;
