/**
 * Appends each jest run's counts to $RDE_TALLY_FILE so the test command can print one closing
 * line for every suite it ran: passed, failed (a suite that failed to load counts as one) and
 * skipped (skipped and todo tests); and, for the summary, how long each suite took.
 */
const fs = require('node:fs');

class TallyReporter {
  onRunComplete(_contexts, results) {
    recordSuiteTimes(results.testResults);
    const file = process.env.RDE_TALLY_FILE;
    if (!file) return;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    fs.appendFileSync(file, `test ${results.numPassedTests} ${failed} ${skipped}\n`);
  }
}

/** Appends `<seconds> <file>` per suite to $RDE_E2E_SUITE_TIMES_FILE: where the test command's time goes. */
function recordSuiteTimes(suites) {
  const file = process.env.RDE_E2E_SUITE_TIMES_FILE;
  if (!file) return;
  const root = `${process.cwd()}/`;
  const lines = suites.map(({ perfStats, testFilePath }) => {
    const seconds = (perfStats.end - perfStats.start) / 1000;
    return `${seconds.toFixed(1)} ${testFilePath.replace(root, '')}\n`;
  });
  fs.appendFileSync(file, lines.join(''));
}

module.exports = TallyReporter;
