import { api } from './api';
import { mode, startRde, type RunningRde } from './harness';
import { SHARED_VARIABLE } from './shared';
import startShared from './shared-setup';

jest.setTimeout(180_000);

/** Only the test command's e2e and spec stages start shared instances (RDE_E2E_SHARED=1). */
const whenShared = process.env[SHARED_VARIABLE] ? describe : describe.skip;

/** Decision 0081: files asking for the default configuration share their jest worker's RDE. */
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

  test('a start asking only for sandbox knobs the instance takes at run time attaches to it', async () => {
    const quick = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0' }, mode, { shared: true });
    try {
      expect(quick.baseUrl).toBe(second.baseUrl);
    } finally {
      await quick.stop();
    }
  });

  test('a start with env of its own gets an instance of its own', async () => {
    const own = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0.5' }, mode, { shared: true });
    try {
      expect(own.baseUrl).not.toBe(second.baseUrl);
      expect(own.processOf('gateway').pid).toEqual(expect.any(Number));
    } finally {
      await own.stop();
    }
  });
});

describe(`the shared RDE's start (${mode})`, () => {
  const published = process.env[SHARED_VARIABLE];
  const readyMs = process.env.RDE_E2E_READY_MS;

  afterEach(() => {
    process.env[SHARED_VARIABLE] = published;
    if (published === undefined) delete process.env[SHARED_VARIABLE];
    process.env.RDE_E2E_READY_MS = readyMs;
    if (readyMs === undefined) delete process.env.RDE_E2E_READY_MS;
  });

  test('an instance that does not become ready publishes nothing, so each file starts its own', async () => {
    delete process.env[SHARED_VARIABLE];
    // The harness reads the readiness limit as it loads: a fresh copy with no time to get ready.
    process.env.RDE_E2E_READY_MS = '1';
    let setup: typeof startShared = startShared;
    jest.isolateModules(() => {
      setup = jest.requireActual<{ default: typeof startShared }>('./shared-setup').default;
    });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await setup({ maxWorkers: 1 });
      expect(process.env[SHARED_VARIABLE]).toBeUndefined();
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('the shared RDE did not start; every file starts its own'),
      );
    } finally {
      warn.mockRestore();
    }
  });
});
