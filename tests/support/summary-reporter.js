// Prints the run's totals as the very last line, in the plain form CI reads: "tests: N passed, N failed",
// and before it the time each project's files took, summed over the workers ("worker-seconds"), the figure
// that shows where a run's time goes. Jest always adds its own summary after every custom reporter, so both
// are written when the process exits (stdout to a pipe or a file is synchronous on Linux).
class SummaryReporter {
  constructor() {
    this.seconds = new Map();
  }
  onTestResult(test, result) {
    const project = test.context.config.displayName?.name ?? "default";
    const { start, end } = result.perfStats;
    this.seconds.set(project, (this.seconds.get(project) ?? 0) + (end - start) / 1000);
  }
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const projects = [...this.seconds].map(([name, s]) => `${name} ${Math.round(s)}`).join(", ");
    const lines =
      (projects ? `worker-seconds: ${projects}\n` : "") +
      `tests: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`;
    process.once("exit", () => process.stdout.write(lines));
  }
}
module.exports = SummaryReporter;
