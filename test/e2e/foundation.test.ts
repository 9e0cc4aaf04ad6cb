import { mode, startRde, waitUntil, type RunningRde } from './harness';

jest.setTimeout(120_000);

describe(`foundation (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({ RDE_DASHBOARD_URL: 'https://dashboard.example.test/' });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const get = (path: string, init?: RequestInit) => fetch(`${rde.baseUrl}${path}`, { redirect: 'manual', ...init });

  test('liveness answers 200 on /health and /healthz', async () => {
    for (const path of ['/health', '/healthz']) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
    }
  });

  test('readiness reports every downstream serving', async () => {
    const response = await get('/ready');
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.status).toBe('ready');
    expect(Object.keys(body.downstreams).sort()).toEqual([
      'auth',
      'billing',
      'catalog',
      'dataset',
      'mcp',
      'waterfall',
      'workflow',
    ]);
    expect(new Set(Object.values(body.downstreams))).toEqual(new Set(['SERVING']));
  });

  test('an unknown route is a JSON 404', async () => {
    const response = await get('/no/such/route');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ detail: 'Not Found' });
  });

  test('the root redirects humans to the dashboard', async () => {
    const response = await get('/');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://dashboard.example.test/');
  });

  test('the OpenAPI 3.1 document lists the routes', async () => {
    const response = await get('/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as any;
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/health', '/healthz', '/ready']));
  });

  if (mode === 'distributed') {
    test('readiness turns 503 when every replica of a downstream stops, naming it', async () => {
      for (const replica of rde.replicasOf('billing')) await rde.stopModule(replica);
      await waitUntil(async () => (await get('/ready')).status === 503, 10_000);
      const body = (await (await get('/ready')).json()) as any;
      expect(body.status).toBe('not_ready');
      expect(body.downstreams.billing).not.toBe('SERVING');
      expect(body.downstreams.auth).toBe('SERVING');
      expect((await get('/health')).status).toBe(200);
      // Billing back, so the next test starts from a ready gateway.
      for (const replica of rde.replicasOf('billing')) await rde.restartModule(replica);
      await waitUntil(async () => (await get('/ready')).status === 200, 30_000);
    });
  }

  test('readiness turns 503 while the gateway drains after SIGTERM', async () => {
    // Ready first, so the 503 below can only be the drain's.
    expect((await get('/ready')).status).toBe(200);
    const gateway = rde.processOf('gateway');
    const exited = new Promise((resolve) => gateway.once('exit', resolve));
    gateway.kill('SIGTERM');
    let during: { status: string; draining: boolean } | undefined;
    await waitUntil(
      async () => {
        const response = await get('/ready');
        if (response.status === 503) during = (await response.json()) as any;
        return during !== undefined;
      },
      5_000,
      20,
    );
    expect(during).toMatchObject({ status: 'not_ready', draining: true });
    await exited;
  });
});
