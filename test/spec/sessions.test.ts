import { api, sandboxCounters, untilSettled } from '../e2e/api';
import { newTeam } from '../e2e/teams';
import { mode, startRde, type RunningRde } from '../e2e/harness';

jest.setTimeout(180_000);

/** 1 credit (9.8 ¢ at the entry list price) per call whatever the verdict. */
const PAID_CALL = '/tools/verimail/verify';
const PAID_BODY = { payload: { email: 'grace@example.com' } };
const PLAN = { steps: ['find engineers', { title: 'enrich emails', tool: 'mailfinder' }], user_prompt: 'hire 3 SREs' };
const MALFORMED = 'session-42';
const UNKNOWN = `ses_${'0'.repeat(32)}`;

/** Spec "Sessions", the Session rows of "States and transitions", and the session cap of "Limits". */
describe(`sessions (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({}, mode, { shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const team = () => newTeam(rde, 'ses');

  const start = async (key: string) => {
    const response = await api(rde, 'POST', '/session/start', { key, body: PLAN });
    expect(response.status).toBe(200);
    return response.body.id as string;
  };
  const session = async (key: string, sid: string) => (await api(rde, 'GET', `/session/${sid}`, { key })).body;
  const verimailCalls = async () => (await sandboxCounters(rde)).verimail?.verify?.requests ?? 0;

  /** Charges on the ledger carrying this session id, once every hold is settled. */
  const sessionCharges = async (key: string, sid: string) => {
    await untilSettled(rde, key);
    const csv = (await api(rde, 'GET', '/api/v2/billing/ledger.csv', { key })).text;
    return csv.split('\n').filter((line) => line.includes(sid)).length;
  };

  /** Every route that names its session, with a valid body for it. */
  const routes = (sid: string): [string, string, object | undefined][] => [
    ['POST', '/session/update', { session_id: sid, index: 0, status: 'running' }],
    ['POST', '/session/status', { session_id: sid, message: 'working' }],
    ['POST', '/session/output', { session_id: sid, csv: 'out/leads.csv', label: 'Leads' }],
    ['GET', `/session/${sid}`, undefined],
    ['POST', `/session/${sid}/limit`, { usd: 5 }],
    ['POST', `/session/${sid}/alert`, { message: 'check the terminal' }],
    ['POST', `/session/${sid}/end`, undefined],
    ['POST', `/session/${sid}/feedback`, { message: 'great run' }],
  ];

  test('start returns a ses_ id; GET returns the plan with every step pending and the session open', async () => {
    const { owner } = await team();
    const sid = await start(owner);
    expect(sid).toMatch(/^ses_[0-9a-f]{32}$/);
    expect(await session(owner, sid)).toMatchObject({
      id: sid,
      user_prompt: PLAN.user_prompt,
      steps: [
        { index: 0, step: PLAN.steps[0], status: 'pending' },
        { index: 1, step: PLAN.steps[1], status: 'pending' },
      ],
      status: 'open',
      cap_usd: null,
      spent_usd: 0,
    });
  });

  test('start without steps or user_prompt is a 422', async () => {
    const { owner } = await team();
    for (const body of [{ steps: [] }, { user_prompt: 'x' }, { steps: 'a', user_prompt: 'x' }]) {
      expect((await api(rde, 'POST', '/session/start', { key: owner, body })).status).toBe(422);
    }
  });

  test('every session route needs a bearer token (401)', async () => {
    for (const [method, path, body] of routes(UNKNOWN)) {
      expect((await api(rde, method, path, { key: null, body })).status).toBe(401);
    }
    expect((await api(rde, 'POST', '/session/start', { key: null, body: PLAN })).status).toBe(401);
  });

  test('an id that is not a ses_ id is a 400 with a reason, on every route', async () => {
    const { owner } = await team();
    for (const [method, path, body] of routes(MALFORMED)) {
      const response = await api(rde, method, path, { key: owner, body });
      expect({ path, status: response.status, body: response.body }).toEqual({
        path,
        status: 400,
        body: { detail: expect.objectContaining({ reason: 'invalid_session_id' }) },
      });
    }
  });

  test('a path naming a POST-only session route is not a session id: GET on it is a 405', async () => {
    const { owner } = await team();
    for (const route of ['start', 'update', 'status', 'output']) {
      const response = await api(rde, 'GET', `/session/${route}`, { key: owner });
      expect({ route, status: response.status, allow: response.headers.get('allow') }).toEqual({
        route,
        status: 405,
        allow: 'POST',
      });
    }
  });

  test("another workspace's session answers 404 like an unknown one, and is left unchanged", async () => {
    const mine = await team();
    const theirs = await team();
    const sid = await start(theirs.owner);
    for (const target of [sid, UNKNOWN]) {
      for (const [method, path, body] of routes(target)) {
        expect({ path, status: (await api(rde, method, path, { key: mine.owner, body })).status }).toEqual({
          path,
          status: 404,
        });
      }
    }
    expect(await session(theirs.owner, sid)).toMatchObject({ status: 'open', cap_usd: null, alert: null });
  });

  test('update moves a step to each status; a bad status or an index past the plan is a 422', async () => {
    const { owner } = await team();
    const sid = await start(owner);
    for (const status of ['running', 'completed', 'error', 'skipped', 'pending']) {
      const response = await api(rde, 'POST', '/session/update', {
        key: owner,
        body: { session_id: sid, index: 1, status },
      });
      expect(response.body.steps[1].status).toBe(status);
    }
    const bad = await api(rde, 'POST', '/session/update', {
      key: owner,
      body: { session_id: sid, index: 0, status: 'done' },
    });
    expect(bad.status).toBe(422);
    const past = await api(rde, 'POST', '/session/update', {
      key: owner,
      body: { session_id: sid, index: 2, status: 'running' },
    });
    expect(past.status).toBe(422);
    expect(past.body.detail[0].loc).toEqual(['body', 'index']);
    expect((await session(owner, sid)).steps.map((step: { status: string }) => step.status)).toEqual([
      'pending',
      'pending',
    ]);
  });

  test('status, output, alert (set and cleared) and feedback are kept on the session', async () => {
    const { owner } = await team();
    const sid = await start(owner);
    await api(rde, 'POST', '/session/status', {
      key: owner,
      body: { session_id: sid, message: 'enriching', step_index: 1 },
    });
    await api(rde, 'POST', '/session/output', {
      key: owner,
      body: { session_id: sid, csv: 'out/leads.csv', label: 'Leads' },
    });
    const alerted = await api(rde, 'POST', `/session/${sid}/alert`, {
      key: owner,
      body: { message: 'check the terminal' },
    });
    expect(alerted.body.alert).toBe('check the terminal');
    const feedback = await api(rde, 'POST', `/session/${sid}/feedback`, { key: owner, body: { message: 'good' } });
    expect(feedback.status).toBe(200);
    expect(await session(owner, sid)).toMatchObject({
      message: 'enriching',
      step_index: 1,
      alert: 'check the terminal',
      outputs: [{ csv: 'out/leads.csv', label: 'Leads', created_at: expect.any(String) }],
    });
    for (const message of [null, '']) {
      await api(rde, 'POST', `/session/${sid}/alert`, { key: owner, body: { message: 'again' } });
      const cleared = await api(rde, 'POST', `/session/${sid}/alert`, { key: owner, body: { message } });
      expect(cleared.body.alert).toBeNull();
    }
  });

  test('spend accrues from the body session_id and from the X-Session-Id header', async () => {
    const { owner } = await team();
    const sid = await start(owner);
    expect((await api(rde, 'POST', PAID_CALL, { key: owner, body: { ...PAID_BODY, session_id: sid } })).status).toBe(
      200,
    );
    const byHeader = await api(rde, 'POST', PAID_CALL, {
      key: owner,
      body: PAID_BODY,
      headers: { 'x-session-id': sid },
    });
    expect(byHeader.status).toBe(200);
    expect((await api(rde, 'POST', PAID_CALL, { key: owner, body: PAID_BODY })).status).toBe(200);
    expect(await sessionCharges(owner, sid)).toBe(2);
    // Two credits at 9.8 ¢ each.
    expect((await session(owner, sid)).spent_usd).toBe(0.2);
  });

  test('end is idempotent, and later runs carrying the session no longer accrue to it', async () => {
    const { owner } = await team();
    const sid = await start(owner);
    await api(rde, 'POST', PAID_CALL, { key: owner, body: { ...PAID_BODY, session_id: sid } });
    const ended = await api(rde, 'POST', `/session/${sid}/end`, { key: owner });
    expect(ended.body).toMatchObject({ status: 'ended', ended_at: expect.any(String) });
    const again = await api(rde, 'POST', `/session/${sid}/end`, { key: owner });
    expect({ status: again.status, ended_at: again.body.ended_at }).toEqual({
      status: 200,
      ended_at: ended.body.ended_at,
    });
    expect((await api(rde, 'POST', PAID_CALL, { key: owner, body: { ...PAID_BODY, session_id: sid } })).status).toBe(
      200,
    );
    expect((await session(owner, sid)).spent_usd).toBe(0.1);
  });

  test('a session over its cap stops metered calls with 402 session_limit, and nothing is charged', async () => {
    const { owner } = await team();
    const sid = await start(owner);
    await api(rde, 'POST', `/session/${sid}/limit`, { key: owner, body: { usd: 0.2 } });
    for (let call = 0; call < 2; call++) {
      expect((await api(rde, 'POST', PAID_CALL, { key: owner, body: { ...PAID_BODY, session_id: sid } })).status).toBe(
        200,
      );
    }
    const before = await verimailCalls();
    const refused = await api(rde, 'POST', PAID_CALL, { key: owner, body: { ...PAID_BODY, session_id: sid } });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ reason: 'session_limit', session_id: sid, cap_usd: 0.2 });
    expect(await verimailCalls()).toBe(before);
    expect(await sessionCharges(owner, sid)).toBe(2);
    // Outside the session the workspace still works.
    expect((await api(rde, 'POST', PAID_CALL, { key: owner, body: PAID_BODY })).status).toBe(200);
  });

  test('with a workspace default, a member may only lower a session cap: raising or clearing it is 403', async () => {
    const { owner, member } = await team();
    await api(rde, 'PUT', '/api/v2/billing/session-cap', { key: owner, body: { cap: 10 } });
    const sid = await start(member);
    const lowered = await api(rde, 'POST', `/session/${sid}/limit`, { key: member, body: { usd: 4 } });
    expect({ status: lowered.status, cap: lowered.body.cap_usd }).toEqual({ status: 200, cap: 4 });
    for (const usd of [10.01, null]) {
      const refused = await api(rde, 'POST', `/session/${sid}/limit`, { key: member, body: { usd } });
      expect(refused.status).toBe(403);
    }
    expect((await session(member, sid)).cap_usd).toBe(4);
    const raised = await api(rde, 'POST', `/session/${sid}/limit`, { key: owner, body: { usd: 50 } });
    expect(raised.body.cap_usd).toBe(50);
    const cleared = await api(rde, 'POST', `/session/${sid}/limit`, { key: owner, body: { usd: null } });
    expect(cleared.body.cap_usd).toBeNull();
  });

  test('without a workspace default a member may set or clear a session cap; 0 or a negative is a 422', async () => {
    const { member } = await team();
    const sid = await start(member);
    expect((await api(rde, 'POST', `/session/${sid}/limit`, { key: member, body: { usd: 25 } })).body.cap_usd).toBe(25);
    expect(
      (await api(rde, 'POST', `/session/${sid}/limit`, { key: member, body: { usd: null } })).body.cap_usd,
    ).toBeNull();
    for (const usd of [0, -1, 'five', 1e308]) {
      expect((await api(rde, 'POST', `/session/${sid}/limit`, { key: member, body: { usd } })).status).toBe(422);
    }
    expect((await session(member, sid)).cap_usd).toBeNull();
  });

  test('a cap above 0 but below a cent is a cap of one cent', async () => {
    const { owner } = await team();
    const sid = await start(owner);
    const response = await api(rde, 'POST', `/session/${sid}/limit`, { key: owner, body: { usd: 0.001 } });
    expect(response.body.cap_usd).toBe(0.01);
  });

  test('a step index past the 200-step plan limit is a 422 naming the field, on update and status', async () => {
    const { owner } = await team();
    const sid = await start(owner);
    const update = await api(rde, 'POST', '/session/update', {
      key: owner,
      body: { session_id: sid, index: 2 ** 40, status: 'running' },
    });
    const status = await api(rde, 'POST', '/session/status', {
      key: owner,
      body: { session_id: sid, message: 'working', step_index: 200 },
    });
    expect([update.status, update.body.detail[0].loc]).toEqual([422, ['body', 'index']]);
    expect([status.status, status.body.detail[0].loc]).toEqual([422, ['body', 'step_index']]);
    expect(await session(owner, sid)).toMatchObject({
      message: null,
      steps: [{ status: 'pending' }, { status: 'pending' }],
    });
  });
});
