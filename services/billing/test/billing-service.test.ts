import { SETTLEMENTS_TOPIC } from '../src/events/settlement-consumer';
import {
  BACKEND_KINDS,
  callerOf,
  credits,
  eventually,
  ledgerOf,
  moneyOf,
  rejection,
  settlementMessage,
  startBilling,
  type RunningBilling,
} from './support';

jest.setTimeout(60_000);

describe.each(BACKEND_KINDS)('billing service (%s backends)', (kind) => {
  let billing: RunningBilling;
  let sequence = 0;
  /** A fresh workspace per test: each starts with the free grant of 100 credits. */
  let workspace: string;

  beforeAll(async () => {
    billing = await startBilling(kind);
  });

  afterAll(async () => {
    await billing?.stop();
  });

  beforeEach(() => {
    workspace = `ws_test${++sequence}`;
  });

  const reserve = (holdId: string, amount: number, ttlMs = 0, workspaceId = workspace) =>
    billing.rpc.reserve(
      { holdId, amount: credits(amount), ttlMs, description: 'test work', runId: holdId },
      callerOf(workspaceId),
    );

  const money = () => moneyOf(billing.rpc, workspace);
  /** What the account must show: available is always balance − reserved. */
  const accountOf = (balance: number, reserved: number, openHolds: number) => ({
    balance,
    reserved,
    available: balance - reserved,
    openHolds,
  });

  const publish = (holdId: string, charges: Array<[string, number]>, final: boolean, workspaceId = workspace) =>
    billing.bus.publish(SETTLEMENTS_TOPIC, [settlementMessage({ workspaceId, holdId, charges, final })]);

  /**
   * One key's messages are delivered in order: once a marker settlement sent under the test
   * workspace's key (for a workspace of its own) is applied, so is everything sent before it.
   */
  async function drainSettlements(): Promise<void> {
    const marker = `ws_marker${++sequence}`;
    await reserve('run_marker', 1, 0, marker);
    const message = settlementMessage({
      workspaceId: marker,
      holdId: 'run_marker',
      charges: [[`${marker}:charge`, 1]],
      final: true,
    });
    await billing.bus.publish(SETTLEMENTS_TOPIC, [{ ...message, key: workspace }]);
    await eventually(async () => (await moneyOf(billing.rpc, marker)).balance === 99);
  }

  describe('free grant', () => {
    test('the first access of any kind opens the account with 100 credits, granted once', async () => {
      await Promise.all([
        billing.rpc.getBalance({ recent: 5 }, callerOf(workspace)),
        billing.rpc.getPlanState({}, callerOf(workspace)),
        billing.rpc.listLedger({}, callerOf(workspace)),
        billing.rpc.getBalance({ recent: 5 }, callerOf(workspace)),
      ]);
      expect(await money()).toEqual(accountOf(100, 0, 0));
      expect(await ledgerOf(billing.rpc, workspace)).toEqual([
        { id: `grant:free:${workspace}`, kind: 'grant', amount: 100, balanceAfter: 100 },
      ]);
    });

    test('workspaces see only their own ledger', async () => {
      await reserve('run_own', 5);
      await publish('run_own', [['run_own:0:0', 5]], true);
      await drainSettlements();
      const other = `${workspace}_other`;
      expect((await ledgerOf(billing.rpc, other)).map((entry) => entry.id)).toEqual([`grant:free:${other}`]);
      expect(await moneyOf(billing.rpc, other)).toMatchObject({ balance: 100 });
    });
  });

  describe('Reserve', () => {
    test('concurrent reserves never hold more than is available', async () => {
      const attempts = Array.from({ length: 10 }, (_, index) =>
        reserve(`run_c${index}`, 15).then(
          () => 'held',
          () => 'refused',
        ),
      );
      const outcomes = await Promise.all(attempts);
      expect(outcomes.filter((outcome) => outcome === 'held')).toHaveLength(6);
      expect(await money()).toEqual(accountOf(100, 90, 6));
    });

    test('a retried reserve with the same hold id holds once', async () => {
      await reserve('run_retry', 30);
      const again = await reserve('run_retry', 30);
      expect(again.account?.reserved).toEqual(credits(30));
      expect(await money()).toEqual(accountOf(100, 30, 1));
    });

    test('an amount above the available balance is refused with 402 insufficient_credits and holds nothing', async () => {
      await reserve('run_first', 60.5);
      const refused = await rejection(reserve('run_second', 40));
      expect(refused).toEqual({
        status: 402,
        body: {
          error: 'insufficient_credits',
          detail: expect.stringMatching(/40 credits.*39\.5/),
          required: 40,
          available: 39.5,
        },
      });
      expect(await money()).toEqual(accountOf(100, 60.5, 1));
    });

    test.each([
      ['a hold id that cannot be a field name', { holdId: 'run.1', amount: credits(1), ttlMs: 0 }, /hold_id/],
      ['an empty hold id', { holdId: '', amount: credits(1), ttlMs: 0 }, /hold_id/],
      ['a zero amount', { holdId: 'run_z', amount: credits(0), ttlMs: 0 }, /amount/],
      ['a negative amount', { holdId: 'run_n', amount: credits(-1), ttlMs: 0 }, /amount/],
      ['a lifetime over a day', { holdId: 'run_t', amount: credits(1), ttlMs: 25 * 3_600_000 }, /ttl_ms/],
    ])('%s is a 400 that changes nothing', async (_name, request, detail) => {
      const refused = await rejection(
        billing.rpc.reserve({ ...request, description: '', runId: '' }, callerOf(workspace)),
      );
      expect(refused).toEqual({ status: 400, body: { detail: expect.stringMatching(detail) } });
      expect(await money()).toEqual(accountOf(100, 0, 0));
    });

    test('a call without a caller is unauthenticated', async () => {
      const refused = await rejection(
        billing.rpc.reserve({ holdId: 'run_x', amount: credits(1), ttlMs: 0, description: '', runId: '' }),
      );
      expect(refused.status).toBe(401);
    });
  });

  describe('settlement', () => {
    test('a settlement delivered three times writes one ledger entry per charge and moves the balance once', async () => {
      await reserve('run_replay', 20);
      for (let copy = 0; copy < 3; copy++) {
        await publish(
          'run_replay',
          [
            ['run_replay:0:0', 3],
            ['run_replay:1:0', 4.25],
          ],
          true,
        );
      }
      await drainSettlements();
      expect(await ledgerOf(billing.rpc, workspace)).toEqual([
        { id: `grant:free:${workspace}`, kind: 'grant', amount: 100, balanceAfter: 100 },
        { id: 'run_replay:0:0', kind: 'charge', amount: -3, balanceAfter: 97 },
        { id: 'run_replay:1:0', kind: 'charge', amount: -4.25, balanceAfter: 92.75 },
      ]);
      expect(await money()).toEqual(accountOf(92.75, 0, 0));
    });

    test('a partial settlement draws the hold down; the final one releases the rest', async () => {
      await reserve('run_steps', 20);
      await publish('run_steps', [['run_steps:0:0', 5]], false);
      await drainSettlements();
      expect(await money()).toEqual(accountOf(95, 15, 1));

      await publish('run_steps', [['run_steps:1:0', 2]], true);
      await drainSettlements();
      expect(await money()).toEqual(accountOf(93, 0, 0));
    });

    test('a charge above what the hold still covers takes the excess from the available balance', async () => {
      await reserve('run_over', 5);
      await reserve('run_other', 10);
      await publish('run_over', [['run_over:0:0', 8]], true);
      await drainSettlements();
      expect(await money()).toEqual(accountOf(92, 10, 1));
    });

    test('what no hold covered (a charge beyond its hold, a late charge) counts against the spending cap', async () => {
      // Cap 12 credits. A hold of 5 is charged 8; then a late charge of 2 after its hold is gone.
      await billing.caps.setWorkspaceCap({ capMillicredits: 12_000 }, callerOf(workspace));
      await reserve('run_beyond', 5);
      await publish('run_beyond', [['run_beyond:0:0', 8]], true);
      await publish('run_gone', [['run_gone:0:0', 2]], true);
      await drainSettlements();
      expect(await money()).toEqual(accountOf(90, 0, 0));
      // 10 of 12 spent: a hold of 3 would cross the cap, a hold of 2 does not.
      expect(await rejection(reserve('run_next', 3))).toMatchObject({
        status: 402,
        body: { reason: 'spending_cap_reached', cap_scope: 'workspace', spent_30d: 10 },
      });
      await reserve('run_fits', 2);
    });

    test('zero charges write nothing; malformed settlements are skipped without stalling the next', async () => {
      await reserve('run_zero', 5);
      await billing.bus.publish(SETTLEMENTS_TOPIC, [{ key: workspace, value: Buffer.from('not a settlement') }]);
      await publish('run_zero', [['run_zero:0:0', 0]], true);
      await drainSettlements();
      expect((await ledgerOf(billing.rpc, workspace)).map((entry) => entry.kind)).toEqual(['grant']);
      expect(await money()).toEqual(accountOf(100, 0, 0));
    });
  });

  describe('hold reaper', () => {
    test('releases a hold past its expiry and leaves a live one', async () => {
      await reserve('run_short', 30, 60_000);
      await reserve('run_long', 10, 3_600_000);
      billing.clock.advance(61_000);
      await eventually(async () => (await money()).openHolds === 1);
      expect(await money()).toEqual(accountOf(100, 10, 1));
    });

    test('a settlement arriving after its hold expired is still billed, once', async () => {
      await reserve('run_late', 10, 60_000);
      billing.clock.advance(61_000);
      await eventually(async () => (await money()).openHolds === 0);
      await publish('run_late', [['run_late:0:0', 6]], true);
      await publish('run_late', [['run_late:0:0', 6]], true);
      await drainSettlements();
      expect(await money()).toEqual(accountOf(94, 0, 0));
      expect((await ledgerOf(billing.rpc, workspace)).at(-1)).toEqual({
        id: 'run_late:0:0',
        kind: 'charge',
        amount: -6,
        balanceAfter: 94,
      });
    });
  });

  describe('hold renewal', () => {
    const renew = (holdId: string, ttlMs: number) => billing.rpc.renewHold({ holdId, ttlMs }, callerOf(workspace));

    test('a renewed hold outlives its first expiry; renewing never shortens it', async () => {
      await reserve('run_renewed', 30, 60_000);
      billing.clock.advance(40_000);
      const renewed = await renew('run_renewed', 60_000);
      expect(renewed).toEqual({ renewed: true, expiresAtMs: expect.any(Number) });
      // A shorter renewal (another replica's, or a late retry) keeps the later expiry.
      expect(await renew('run_renewed', 1_000)).toEqual(renewed);
      billing.clock.advance(30_000);
      await eventually(async () => (await money()).openHolds === 1);
      expect(await money()).toEqual(accountOf(100, 30, 1));
    });

    test('a hold reaped or released by its final settlement is never revived', async () => {
      await reserve('run_reaped', 30, 60_000);
      billing.clock.advance(61_000);
      await eventually(async () => (await money()).openHolds === 0);
      expect(await renew('run_reaped', 60_000)).toEqual({ renewed: false, expiresAtMs: 0 });
      await reserve('run_settled', 20, 60_000);
      await publish('run_settled', [['run_settled:0:0', 5]], true);
      await drainSettlements();
      expect(await renew('run_settled', 60_000)).toEqual({ renewed: false, expiresAtMs: 0 });
      expect(await renew('run_never_held', 60_000)).toEqual({ renewed: false, expiresAtMs: 0 });
      expect(await money()).toEqual(accountOf(95, 0, 0));
    });

    test('a malformed hold id or lifetime is refused and renews nothing', async () => {
      await reserve('run_kept', 10, 60_000);
      expect(await rejection(renew('run.kept', 60_000))).toMatchObject({ status: 400 });
      expect(await rejection(renew('run_kept', -1))).toMatchObject({ status: 400 });
      billing.clock.advance(61_000);
      await eventually(async () => (await money()).openHolds === 0);
    });
  });

  describe('reads', () => {
    test('the ledger pages oldest first with its total', async () => {
      await reserve('run_pages', 10);
      await publish(
        'run_pages',
        [
          ['run_pages:0:0', 1],
          ['run_pages:1:0', 2],
          ['run_pages:2:0', 3],
        ],
        true,
      );
      await drainSettlements();
      const page = await billing.rpc.listLedger({ page: { offset: 1, limit: 2 } }, callerOf(workspace));
      expect(page.entries.map((entry) => entry.id)).toEqual(['run_pages:0:0', 'run_pages:1:0']);
      expect(page.page).toEqual({ offset: 1, limit: 2, total: 4 });
      const balance = await billing.rpc.getBalance({ recent: 2 }, callerOf(workspace));
      expect(balance.recentEntries.map((entry) => entry.id)).toEqual(['run_pages:2:0', 'run_pages:1:0']);
    });

    test.each([
      ['a negative offset', { offset: -1, limit: 10 }, /offset/],
      ['a page above 1000 entries', { offset: 0, limit: 1_001 }, /limit/],
    ])('%s is a 400', async (_name, page, detail) => {
      const refused = await rejection(billing.rpc.listLedger({ page }, callerOf(workspace)));
      expect(refused).toEqual({ status: 400, body: { detail: expect.stringMatching(detail) } });
    });

    test('the plan state is Free: no subscription, no credit purchases, unlimited seats', async () => {
      const { planStateJson } = await billing.rpc.getPlanState({}, callerOf(workspace));
      expect(JSON.parse(planStateJson.toString())).toEqual({
        plan: expect.objectContaining({ id: 'free', seat_limit: null }),
        subscription: null,
        can_buy_credits: false,
        beta: false,
        seats: { limit: null },
      });
    });
  });
});
