import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startRde, type RunningRde } from './harness';
import { isJson, run } from './processes';

// Issue 23 point 7, decision 0058: every setting of every module a process runs is checked before
// any module starts; an `RDE_*` name nothing reads is a warning with the closest known one.

jest.setTimeout(120_000);

/** Output at info level, so a module that started would say so; a runtime dir to see whether RDE recorded itself. */
const observed = () => ({ RDE_LOG_LEVEL: 'info', RDE_RUNTIME_DIR: mkdtempSync(path.join(tmpdir(), 'rde-config-')) });

function expectRefusedBeforeStart(result: { code: number | null; stdout: string; stderr: string }, dir: string) {
  expect(result.code).toBe(2);
  expect(result.stderr.match(/invalid configuration/g)).toHaveLength(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  // Nothing logged: no adapter connected, no module started, no port bound, no instance recorded.
  expect(result.stdout).toBe('');
  expect(readdirSync(dir)).toEqual([]);
}

test('several bad settings of different modules are one message naming each, exit 2, before anything starts', async () => {
  const variables = observed();
  const result = await run(['start'], {
    ...variables,
    PORT: 'abc',
    RDE_METRICS_PORT: '99999',
    RDE_BILLING_HOLD_TTL_MS: 'soon',
    RDE_DATASET_QUOTA_ROWS: '0',
    RDE_MONGO_URL: 'mongodb://127.0.0.1:1/',
  });
  expectRefusedBeforeStart(result, variables.RDE_RUNTIME_DIR);
  const problems = result.stderr.split('\n').filter((line) => line.startsWith('  - '));
  expect(problems.sort()).toEqual(
    [
      '  - PORT="abc" is invalid: expected a port, 0 to 65535 (0 = any free port)',
      '  - RDE_METRICS_PORT="99999" is invalid: expected a port, 0 to 65535 (0 = any free port)',
      '  - RDE_BILLING_HOLD_TTL_MS="soon" is invalid: expected whole milliseconds, 0 or more',
      '  - RDE_DATASET_QUOTA_ROWS="0" is invalid: expected a whole number, 1 or more',
      '  - production adapters need RDE_MONGO_URL, RDE_KAFKA_BROKERS and RDE_REDIS_URL; missing: RDE_KAFKA_BROKERS, RDE_REDIS_URL',
    ].sort(),
  );
});

test('a process of one module (--target=billing) refuses a bad billing setting before it connects to any backend', async () => {
  const variables = observed();
  const result = await run(['start', '--target=billing'], {
    ...variables,
    // Servers that do not exist: a process that got as far as connecting would hang or fail otherwise.
    RDE_MONGO_URL: 'mongodb://127.0.0.1:1/',
    RDE_KAFKA_BROKERS: '127.0.0.1:1',
    RDE_REDIS_URL: 'redis://127.0.0.1:1',
    RDE_BILLING_REAPER_INTERVAL_MS: 'often',
    RDE_BILLING_PORT: '-1',
    // The dataset module's, which this process does not run: not its concern.
    RDE_DATASET_WRITE_BATCH: 'abc',
  });
  expectRefusedBeforeStart(result, variables.RDE_RUNTIME_DIR);
  expect(result.stderr).toContain('RDE_BILLING_REAPER_INTERVAL_MS="often" is invalid');
  expect(result.stderr).toContain('RDE_BILLING_PORT="-1" is invalid');
  expect(result.stderr).not.toContain('RDE_DATASET_WRITE_BATCH');
});

describe('an unknown RDE_ variable', () => {
  let rde: RunningRde;
  beforeAll(async () => {
    rde = await startRde({ RDE_BILLING_PORTT: '7102' });
  });
  afterAll(() => rde?.stop());

  test('is a warning in every process naming the closest known variable, and RDE still starts', async () => {
    expect((await fetch(`${rde.baseUrl}/ready`)).status).toBe(200);
    const warnings = rde
      .logLines()
      .filter(({ text }) => text.includes('unknown variable'))
      .map(({ process, text }) => ({ process, ...JSON.parse(text) }));
    const processes = [...new Set(rde.logLines().map(({ process }) => process))];
    // One per process, and only this one: every variable the test command and the harness set is known.
    expect(warnings.map(({ process }) => process).sort()).toEqual(processes.sort());
    for (const warning of warnings) {
      expect(warning).toMatchObject({
        level: 40,
        variable: 'RDE_BILLING_PORTT',
        closest: 'RDE_BILLING_PORT',
        msg: 'unknown variable RDE_BILLING_PORTT: did you mean RDE_BILLING_PORT?',
      });
    }
  });

  test('without a terminal every line of every process is JSON, libraries included', () => {
    expect(rde.logLines().filter(({ text }) => !isJson(text))).toEqual([]);
  });
});
