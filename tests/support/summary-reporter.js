// Prints the run's totals as the very last line, in the plain form CI reads: "tests: N passed, N failed".
// Jest always adds its own summary after every custom reporter, so the line is written when the process
// exits (stdout to a pipe or a file is synchronous on Linux).
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `tests: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`;
    process.once("exit", () => process.stdout.write(line));
  }
}
module.exports = SummaryReporter;
