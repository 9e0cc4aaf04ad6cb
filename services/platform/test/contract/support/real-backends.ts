import { randomBytes } from 'node:crypto';
import { createLogger } from '../../../src/logger';

/** Distinguishes this run's databases, topics, groups and keys from every other run's. */
export const RUN_ID = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

let sequence = 0;
/** A name no other test of any run uses: `rde-<run>-<label>-<n>`. */
export function uniqueName(label: string): string {
  return `rde-${RUN_ID}-${label}-${++sequence}`;
}

/** Silent unless RDE_LOG_LEVEL asks; adapters log retries and kafkajs warnings through it. */
export const testLogger = createLogger('contract', process.env.RDE_LOG_LEVEL ?? 'silent');

/**
 * Defines the suite when every variable is set. Otherwise it is skipped, except with
 * RDE_REQUIRE_REAL_BACKENDS=true: then it fails, so CI cannot pass by skipping the real servers.
 */
export function describeWithEnv<V extends string>(
  title: string,
  variables: readonly V[],
  define: (values: Record<V, string>) => void,
): void {
  const values = Object.fromEntries(variables.map((name) => [name, process.env[name] ?? ''])) as Record<V, string>;
  const missing = variables.filter((name) => !values[name]);
  if (missing.length === 0) {
    describe(title, () => define(values));
  } else if (process.env.RDE_REQUIRE_REAL_BACKENDS === 'true') {
    describe(title, () => {
      it('has its real backend configured', () => {
        throw new Error(`RDE_REQUIRE_REAL_BACKENDS=true but ${missing.join(', ')} not set`);
      });
    });
  } else {
    describe.skip(`${title} (set ${missing.join(', ')})`, () => {
      it('runs against the real server', () => undefined);
    });
  }
}
