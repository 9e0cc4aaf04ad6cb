// Counts a conformance run's scenarios from its results directory (one `<mode>-<scenario>-<time>/
// checks.json` each) against the baseline: passed (every check passed, or only baselined checks
// failed), failed (a check failed that the baseline does not list, or a baselined scenario passed:
// a stale entry), skipped (a scenario the baseline lists whole, failing as expected). Prints
// `<passed> <failed> <skipped>` and names each failure on stderr.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [resultsDir, baselineFile] = process.argv.slice(2);
const baselined = new Set(
  readFileSync(baselineFile, 'utf8')
    .split('\n')
    .map((line) => /^\s*-\s*([^\s#]+)/.exec(line)?.[1])
    .filter(Boolean),
);

const counts = { passed: 0, failed: 0, skipped: 0 };
for (const entry of readdirSync(resultsDir)) {
  const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(entry)?.[1];
  if (!scenario) continue;
  const checks = JSON.parse(readFileSync(join(resultsDir, entry, 'checks.json'), 'utf8'));
  // The CLI fails a run on a WARNING (an unmet SHOULD) as on a FAILURE.
  const failing = checks.filter((check) => ['FAILURE', 'WARNING'].includes(check.status)).map((check) => check.id);
  if (baselined.has(scenario)) {
    if (failing.length > 0) counts.skipped += 1;
    else fail(scenario, 'passes but is in the baseline (remove the entry)');
    continue;
  }
  const unexpected = failing.filter((id) => !baselined.has(`${scenario}:${id}`));
  const stale = [...baselined].filter(
    (name) => name.startsWith(`${scenario}:`) && !failing.includes(name.split(':')[1]),
  );
  if (unexpected.length > 0) fail(scenario, unexpected.join(', '));
  else if (stale.length > 0) fail(scenario, `${stale.join(', ')} pass but are in the baseline (remove them)`);
  else counts.passed += 1;
}
console.log(`${counts.passed} ${counts.failed} ${counts.skipped}`);

function fail(scenario, why) {
  counts.failed += 1;
  console.error(`conformance: ${scenario} failed: ${why}`);
}
