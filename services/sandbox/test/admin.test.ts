import { authHeaders, query, startSandbox, waitFor, type Sandbox } from './harness';

// Many HTTP round trips per test; CI machines may be busy.
jest.setTimeout(30_000);

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());
beforeEach(() => sandbox.admin('POST', '/reset'));

const search = () =>
  sandbox.call('pplgraph', 'POST', '/v1/people/search', { query: { job_title: ['engineer'] }, size: 5 });
const verify = () => sandbox.call('verimail', 'POST', '/v3/verify', { email: 'someone@gmail.com' });

describe('knobs', () => {
  it('reads a vendor’s knobs and changes only the fields sent', async () => {
    const before = await sandbox.admin('GET', '/knobs/pplgraph');
    expect(before.body).toMatchObject({
      faults: { timeout: 0, server_error: 0, malformed: 0 },
      hit_rate_multiplier: 1,
      rate_limit: null,
    });
    const changed = await sandbox.admin('PUT', '/knobs/pplgraph', {
      faults: { server_error: 0.5 },
      latency_ms: { median: 5 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      ...before.body,
      faults: { ...before.body.faults, server_error: 0.5 },
      latency_ms: { ...before.body.latency_ms, median: 5 },
    });
    expect((await sandbox.admin('GET', '/knobs')).body.knobs.pplgraph).toEqual(changed.body);
    expect((await sandbox.admin('GET', '/knobs/prospectdb')).body.faults.server_error).toBe(0);
  });

  it.each([
    ['a rate above 1', { faults: { timeout: 1.5 } }],
    ['an unknown knob', { latency: 5 }],
    ['a string for a number', { hit_rate_multiplier: 'high' }],
    ['a rate limit without burst', { rate_limit: { per_second: 3 } }],
    ['an empty body', {}],
  ])('answers 422 with a detail list for %s, changing nothing', async (_, body) => {
    const response = await sandbox.admin('PUT', '/knobs/pplgraph', body);
    expect(response.status).toBe(422);
    expect(response.body.detail[0]).toEqual(
      expect.objectContaining({ loc: expect.any(Array), msg: expect.any(String) }),
    );
    expect((await sandbox.admin('GET', '/knobs/pplgraph')).body.faults.timeout).toBe(0);
  });

  it('answers 404 for a vendor it does not have', async () => {
    expect((await sandbox.admin('PUT', '/knobs/nosuchvendor', { hit_rate_multiplier: 2 })).status).toBe(404);
    expect((await sandbox.admin('GET', '/counters/nosuchvendor')).status).toBe(404);
  });

  it('hit-rate multiplier 0 makes a vendor miss everyone it found before', async () => {
    const staff = (await search()).body.data.map((p: { linkedin_url: string }) => p.linkedin_url);
    const lookups = () =>
      Promise.all(
        staff.map((url: string) => sandbox.call('dialbook', 'GET', '/v1/phone' + query({ linkedin_url: url }))),
      );
    await sandbox.admin('PUT', '/knobs/dialbook', { hit_rate_multiplier: 100 });
    expect((await lookups()).every((r) => r.body.phones.length === 1)).toBe(true);
    await sandbox.admin('PUT', '/knobs/dialbook', { hit_rate_multiplier: 0 });
    expect((await lookups()).every((r) => r.body.phones.length === 0)).toBe(true);
  });

  it('latency holds an answer back: a slow vendor’s request is counted but unanswered after a fast vendor answers', async () => {
    await sandbox.admin('PUT', '/knobs/verimail', { latency_ms: { median: 600_000, p95: 600_000 } });
    const held = verify().catch(() => undefined); // answered when the sandbox stops
    await waitFor(async () => (await sandbox.admin('GET', '/counters/verimail')).body.verify?.requests === 1);
    expect((await search()).status).toBe(200);
    expect((await sandbox.admin('GET', '/counters/verimail')).body.verify).toEqual({ requests: 1, statuses: {} });
    void held;
  });

  it('injects 5xx errors in the vendor’s own error shape', async () => {
    await sandbox.admin('PUT', '/knobs/pplgraph', { faults: { server_error: 1 } });
    const response = await search();
    expect([500, 502, 503]).toContain(response.status);
    expect(response.body.error.type).toBe('api_error');
  });

  it('injects malformed bodies: a 200 whose JSON does not parse', async () => {
    await sandbox.admin('PUT', '/knobs/pplgraph', { faults: { malformed: 1 } });
    const response = await search();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(() => JSON.parse(response.text)).toThrow();
  });

  it('injects timeouts: the answer does not come before the client gives up, then comes as a 504', async () => {
    await sandbox.admin('PUT', '/knobs/verimail', { faults: { timeout: 1 }, timeout_hang_ms: 600 });
    const url = `${sandbox.url}/verimail/v3/verify`;
    const send = (signal?: AbortSignal) =>
      fetch(url, {
        method: 'POST',
        headers: { ...authHeaders('verimail'), 'content-type': 'application/json' },
        body: '{"email":"a@b.co"}',
        signal,
      });
    await expect(send(AbortSignal.timeout(200))).rejects.toThrow();
    expect((await send()).status).toBe(504);
  });

  it('rate-limits with 429 and a Retry-After in whole seconds', async () => {
    await sandbox.admin('PUT', '/knobs/verimail', { rate_limit: { per_second: 0.5, burst: 2 } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await verify());
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(Number(statuses[2]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(statuses[2]!.body).toEqual({ success: false, status: 429, message: 'rate limit exceeded' });
  });
});

describe('counters', () => {
  it('count requests and answers per vendor and endpoint, rejected ones included', async () => {
    await search();
    await search();
    await sandbox.call('pplgraph', 'POST', '/v1/people/search', { query: { job_title: ['x'] } }, {});
    await sandbox.call('prospectdb', 'GET', '/api/v1/geo');
    const counters = (await sandbox.admin('GET', '/counters')).body.counters;
    expect(counters.pplgraph.search).toEqual({ requests: 3, statuses: { 200: 2, 401: 1 } });
    expect(counters.prospectdb).toEqual({
      search: { requests: 0, statuses: {} },
      geo: { requests: 1, statuses: { 200: 1 } },
    });
    expect(counters.mailfinder.find.requests).toBe(0);
  });

  it('reset zeroes the counters and restores the default knobs', async () => {
    await search();
    await sandbox.admin('PUT', '/knobs/pplgraph', { hit_rate_multiplier: 3 });
    const reset = await sandbox.admin('POST', '/reset', { knobs: true, counters: true });
    expect(reset.status).toBe(200);
    expect((await sandbox.admin('GET', '/counters/pplgraph')).body.search.requests).toBe(0);
    expect((await sandbox.admin('GET', '/knobs/pplgraph')).body.hit_rate_multiplier).toBe(1);
  });

  it('reset can keep the knobs', async () => {
    await sandbox.admin('PUT', '/knobs/pplgraph', { hit_rate_multiplier: 3 });
    await sandbox.admin('POST', '/reset', { knobs: false });
    expect((await sandbox.admin('GET', '/knobs/pplgraph')).body.hit_rate_multiplier).toBe(3);
  });
});

describe('ground truth', () => {
  it('serves a person and a company of the universe, and 404 past its end', async () => {
    const person = await sandbox.admin('GET', '/people/42');
    expect(person.body).toMatchObject({ index: 42, id: 'per_42', experience: expect.any(Array) });
    expect((await sandbox.admin('GET', `/companies/${person.body.company.index}`)).body.name).toBe(
      person.body.company.name,
    );
    expect((await sandbox.admin('GET', '/people/1000000')).status).toBe(404);
  });
});
