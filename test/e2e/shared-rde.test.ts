import { api } from './api';
import { mode, startRde, type RunningRde } from './harness';
import { SHARED_VARIABLE } from './shared';

jest.setTimeout(180_000);

/** Only the test command's e2e and spec stages start shared instances (RDE_E2E_SHARED=1). */
const whenShared = process.env[SHARED_VARIABLE] ? describe : describe.skip;

/** Decision 0080: files asking for the default configuration share their jest worker's RDE. */
whenShared(`the shared RDE of a jest worker (${mode})`, () => {
  let first: RunningRde;
  let second: RunningRde;

  beforeAll(async () => {
    first = await startRde({}, mode, { shared: true });
    second = await startRde({}, mode, { shared: true });
  });

  test('two starts attach to one instance, each with a fresh workspace of its own with the Free plan’s credits', async () => {
    expect(second.baseUrl).toBe(first.baseUrl);
    const [mine, theirs] = await Promise.all([first, second].map((rde) => api(rde, 'GET', '/api/v2/me')));
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    expect(mine.body.workspace.id).not.toBe(theirs.body.workspace.id);
    for (const rde of [first, second]) {
      expect((await api(rde, 'GET', '/billing/balance')).body.balance).toBe(100);
    }
  });

  test('stopping a handle leaves the instance serving the others', async () => {
    await first.stop();
    expect((await api(second, 'GET', '/api/v2/me')).status).toBe(200);
  });

  test('what would disturb the next file is refused, naming the fix', () => {
    const fix = /not allowed on the shared RDE .* start an own instance/;
    expect(() => second.processOf('auth')).toThrow(fix);
    expect(() => second.logLines()).toThrow(fix);
    expect(() => second.stopModule('auth')).toThrow(fix);
    expect(() => second.restartModule('auth')).toThrow(fix);
  });

  test('a start with env of its own gets an instance of its own', async () => {
    const own = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0' }, mode, { shared: true });
    try {
      expect(own.baseUrl).not.toBe(second.baseUrl);
      expect(own.processOf('gateway').pid).toEqual(expect.any(Number));
    } finally {
      await own.stop();
    }
  });
});
