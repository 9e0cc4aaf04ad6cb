import { api, sandboxCounters, untilSettled } from '../e2e/api';
import { newTeam } from '../e2e/teams';
import { mode, startRde, type RunningRde } from '../e2e/harness';

jest.setTimeout(180_000);

/** 1 credit per call whatever the verdict: a call's charge equals its hold, so a cap counts calls. */
const PAID_CALL = '/tools/verimail/verify';
const PAID_BODY = { payload: { email: 'ada@example.com' } };
const OWNER_ONLY = { detail: 'Only the workspace owner can manage billing.' };

interface LedgerRow {
  id: string;
  kind: string;
  amount: number;
  user_id: string | null;
}

/** Spec "Billing" and "Limits": the workspace, member and session caps. */
describe(`spend caps (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({}, mode, { replicas: { billing: 2 }, shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const team = () => newTeam(rde, 'caps');

  const verimailCalls = async () => (await sandboxCounters(rde)).verimail?.verify?.requests ?? 0;

  /** The ledger once every hold is settled. */
  const settledLedger = async (key: string): Promise<LedgerRow[]> => {
    await untilSettled(rde, key);
    const csv = (await api(rde, 'GET', '/api/v2/billing/ledger.csv', { key })).text;
    const [header, ...lines] = csv.trimEnd().split('\n');
    const columns = header.split(',');
    return lines.map((line) => {
      const cells = line.split(',');
      const row = Object.fromEntries(columns.map((column, index) => [column, cells[index]]));
      return { id: row.id, kind: row.kind, amount: Number(row.amount), user_id: row.user_id || null };
    });
  };
  const charges = async (key: string) => (await settledLedger(key)).filter((row) => row.kind === 'charge');

  describe('PUT/DELETE /api/v2/billing/spending-cap', () => {
    test('the owner sets and clears the workspace cap', async () => {
      const { owner } = await team();
      expect(await api(rde, 'PUT', '/api/v2/billing/spending-cap', { key: owner, body: { cap: 250 } })).toMatchObject({
        status: 200,
        body: { cap: 250 },
      });
      expect(await api(rde, 'DELETE', '/api/v2/billing/spending-cap', { key: owner })).toMatchObject({
        status: 200,
        body: { cap: null },
      });
    });

    test('a member is refused with the exact owner-only body and nothing changes', async () => {
      const { owner, member } = await team();
      const put = await api(rde, 'PUT', '/api/v2/billing/spending-cap', { key: member, body: { cap: 1 } });
      expect({ status: put.status, body: put.body }).toEqual({ status: 403, body: OWNER_ONLY });
      const del = await api(rde, 'DELETE', '/api/v2/billing/spending-cap', { key: member });
      expect({ status: del.status, body: del.body }).toEqual({ status: 403, body: OWNER_ONLY });
      // No cap was set: the member's paid call goes through.
      expect((await api(rde, 'POST', PAID_CALL, { key: owner, body: PAID_BODY })).status).toBe(200);
    });

    test('a cap of 0, a negative or a missing cap is a 422', async () => {
      const { owner } = await team();
      for (const body of [{ cap: 0 }, { cap: -5 }, {}, { cap: 'ten' }, { cap: 1e308 }]) {
        const response = await api(rde, 'PUT', '/api/v2/billing/spending-cap', { key: owner, body });
        expect(response.status).toBe(422);
        expect(response.body.detail[0].loc).toEqual(['body', 'cap']);
      }
    });
  });

  test('a cap above 0 but below one sub-unit is one millicredit (workspace) or one cent (session default)', async () => {
    const { owner } = await team();
    const workspace = await api(rde, 'PUT', '/api/v2/billing/spending-cap', { key: owner, body: { cap: 1e-9 } });
    const session = await api(rde, 'PUT', '/api/v2/billing/session-cap', { key: owner, body: { cap: 1e-9 } });
    expect([workspace.body, session.body]).toEqual([{ cap: 0.001 }, { cap: 0.01 }]);
  });

  describe('crossing the workspace cap', () => {
    test('is refused with 402 spending_cap_reached, cap_scope workspace, and nothing is charged', async () => {
      const { owner, member } = await team();
      await api(rde, 'PUT', '/api/v2/billing/spending-cap', { key: owner, body: { cap: 2 } });
      expect((await api(rde, 'POST', PAID_CALL, { key: owner, body: PAID_BODY })).status).toBe(200);
      expect((await api(rde, 'POST', PAID_CALL, { key: member, body: PAID_BODY })).status).toBe(200);
      const before = await verimailCalls();
      const refused = await api(rde, 'POST', PAID_CALL, { key: owner, body: PAID_BODY });
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({ reason: 'spending_cap_reached', cap_scope: 'workspace', cap: 2 });
      expect(await verimailCalls()).toBe(before);
      expect((await charges(owner)).map((row) => row.amount)).toEqual([-1, -1]);
      // Clearing the cap lets calls through again.
      await api(rde, 'DELETE', '/api/v2/billing/spending-cap', { key: owner });
      expect((await api(rde, 'POST', PAID_CALL, { key: owner, body: PAID_BODY })).status).toBe(200);
    });

    test('50 concurrent paid calls against a cap allowing exactly 7: exactly 7 succeed and 7 are charged', async () => {
      const { owner } = await team();
      await api(rde, 'PUT', '/api/v2/billing/spending-cap', { key: owner, body: { cap: 7 } });
      const before = await verimailCalls();
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => api(rde, 'POST', PAID_CALL, { key: owner, body: PAID_BODY })),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(7);
      expect(statuses.filter((status) => status === 402)).toHaveLength(43);
      for (const refused of responses.filter((response) => response.status === 402)) {
        expect(refused.body).toMatchObject({ reason: 'spending_cap_reached', cap_scope: 'workspace' });
      }
      const ledger = await charges(owner);
      expect(ledger).toHaveLength(7);
      expect(ledger.reduce((sum, row) => sum + row.amount, 0)).toBe(-7);
      expect(await verimailCalls()).toBe(before + 7);
    });
  });

  describe('member spend caps', () => {
    test('crossing a member cap is refused with cap_scope member; the owner is not capped by it', async () => {
      const { owner, member, memberId } = await team();
      // $0.20 at the entry plan's list price ($49 for 500 credits) is 2.04 credits: two calls.
      const put = await api(rde, 'PUT', `/api/v2/workspaces/members/${memberId}/spend-cap`, {
        key: owner,
        body: { cap_usd: 0.2 },
      });
      expect({ status: put.status, body: put.body }).toEqual({
        status: 200,
        body: { user_id: memberId, cap_usd: 0.2 },
      });
      for (let call = 0; call < 2; call++) {
        expect((await api(rde, 'POST', PAID_CALL, { key: member, body: PAID_BODY })).status).toBe(200);
      }
      const before = await verimailCalls();
      const refused = await api(rde, 'POST', PAID_CALL, { key: member, body: PAID_BODY });
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({ reason: 'spending_cap_reached', cap_scope: 'member', cap_usd: 0.2 });
      expect(await verimailCalls()).toBe(before);
      expect((await api(rde, 'POST', PAID_CALL, { key: owner, body: PAID_BODY })).status).toBe(200);
      const ledger = await charges(owner);
      expect(ledger.filter((row) => row.user_id === memberId)).toHaveLength(2);
      expect(ledger).toHaveLength(3);

      const list = await api(rde, 'GET', '/api/v2/workspaces/members/spend-caps', { key: member });
      expect(list.status).toBe(200);
      expect(list.body.members).toEqual(
        expect.arrayContaining([
          {
            user_id: memberId,
            email: expect.stringMatching(/^caps\.member\./),
            role: 'member',
            cap_usd: 0.2,
            spent_30d_usd: 0.2,
          },
          expect.objectContaining({ role: 'owner', cap_usd: null }),
        ]),
      );

      const cleared = await api(rde, 'DELETE', `/api/v2/workspaces/members/${memberId}/spend-cap`, { key: owner });
      expect(cleared.body).toEqual({ user_id: memberId, cap_usd: null });
      expect((await api(rde, 'POST', PAID_CALL, { key: member, body: PAID_BODY })).status).toBe(200);
    });

    test('a workflow_run_id sent with a member key does not lift the member cap (decision 0041)', async () => {
      const { owner, member, memberId } = await team();
      await api(rde, 'PUT', `/api/v2/workspaces/members/${memberId}/spend-cap`, {
        key: owner,
        body: { cap_usd: 0.01 },
      });
      const before = (await sandboxCounters(rde)).pplgraph?.search?.requests ?? 0;
      const refused = await api(rde, 'POST', '/search/people_search', {
        key: member,
        body: { query: { titles: ['CTO'] }, limit: 5, workflow_run_id: 'wfr_claimed_by_the_client' },
      });
      expect(refused.status).toBe(402);
      expect(refused.body).toMatchObject({ reason: 'spending_cap_reached', cap_scope: 'member' });
      expect((await sandboxCounters(rde)).pplgraph?.search?.requests ?? 0).toBe(before);
      expect(await charges(owner)).toEqual([]);
    });

    test('a member cannot set or clear member caps (owner-only 403)', async () => {
      const { member, memberId } = await team();
      const path = `/api/v2/workspaces/members/${memberId}/spend-cap`;
      const put = await api(rde, 'PUT', path, { key: member, body: { cap_usd: 100 } });
      expect({ status: put.status, body: put.body }).toEqual({ status: 403, body: OWNER_ONLY });
      const del = await api(rde, 'DELETE', path, { key: member });
      expect({ status: del.status, body: del.body }).toEqual({ status: 403, body: OWNER_ONLY });
    });

    test('a user who is not a member of the workspace is a 404', async () => {
      const { owner } = await team();
      const stranger = await team();
      const response = await api(rde, 'PUT', `/api/v2/workspaces/members/${stranger.memberId}/spend-cap`, {
        key: owner,
        body: { cap_usd: 5 },
      });
      expect(response.status).toBe(404);
      const list = await api(rde, 'GET', '/api/v2/workspaces/members/spend-caps', { key: owner });
      expect(list.body.members.map((row: { user_id: string }) => row.user_id)).not.toContain(stranger.memberId);
    });

    test('cap_usd must be above 0 (422)', async () => {
      const { owner, memberId } = await team();
      const response = await api(rde, 'PUT', `/api/v2/workspaces/members/${memberId}/spend-cap`, {
        key: owner,
        body: { cap_usd: 0 },
      });
      expect(response.status).toBe(422);
    });
  });

  describe('PUT/DELETE /api/v2/billing/session-cap', () => {
    test('the owner sets the default; sessions started afterwards inherit it, a running one keeps its own', async () => {
      const { owner } = await team();
      const before = await api(rde, 'POST', '/session/start', { key: owner, body: { steps: ['a'], user_prompt: 'p' } });
      expect(before.body.cap_usd).toBeNull();
      expect(await api(rde, 'PUT', '/api/v2/billing/session-cap', { key: owner, body: { cap: 1.5 } })).toMatchObject({
        status: 200,
        body: { cap: 1.5 },
      });
      const after = await api(rde, 'POST', '/session/start', { key: owner, body: { steps: ['a'], user_prompt: 'p' } });
      expect(after.body.cap_usd).toBe(1.5);
      expect((await api(rde, 'GET', `/session/${before.body.id}`, { key: owner })).body.cap_usd).toBeNull();
      expect((await api(rde, 'DELETE', '/api/v2/billing/session-cap', { key: owner })).body).toEqual({ cap: null });
      expect((await api(rde, 'GET', `/session/${after.body.id}`, { key: owner })).body.cap_usd).toBe(1.5);
    });

    test('a member is refused with the owner-only body', async () => {
      const { member } = await team();
      const put = await api(rde, 'PUT', '/api/v2/billing/session-cap', { key: member, body: { cap: 3 } });
      expect({ status: put.status, body: put.body }).toEqual({ status: 403, body: OWNER_ONLY });
      const del = await api(rde, 'DELETE', '/api/v2/billing/session-cap', { key: member });
      expect({ status: del.status, body: del.body }).toEqual({ status: 403, body: OWNER_ONLY });
    });
  });
});
