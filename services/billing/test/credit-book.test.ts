import { InMemoryDocumentStore, ManualClock, type Collection } from '@rde/platform';
import { CreditBook } from '../src/app/credit-book';
import { chargeEntry, type LedgerEntry, type Settlement } from '../src/domain/ledger';
import { Settlements } from '../src/app/settlements';
import { AccountsRepository, type AccountDocument } from '../src/store/accounts';
import { LedgerRepository } from '../src/store/ledger';
import { SpendCapsRepository } from '../src/store/caps';
import { rejection, testLogger } from './support';

/**
 * Crashes between the steps of a settlement, replayed: each step must be a no-op the second time.
 * The steps are driven one by one on the stores, as a consumer killed halfway would leave them.
 */
describe('credit book crash windows', () => {
  const workspaceId = 'ws_crash';
  const charge = { id: 'run_crash:0:0', amount: 4_000, description: 'hit', userId: 'usr_1', sessionId: '' };
  const settlement: Settlement = {
    id: 's1',
    workspaceId,
    holdId: 'run_crash',
    runId: 'run_crash',
    charges: [charge],
    final: true,
  };
  let clock: ManualClock;
  let accounts: AccountsRepository;
  let ledger: LedgerRepository;
  let book: CreditBook;
  let settlements: Settlements;
  let ledgerCollection: Collection<LedgerEntry>;

  beforeEach(async () => {
    const store = new InMemoryDocumentStore();
    clock = new ManualClock();
    ledgerCollection = store.collection<LedgerEntry>('ledger');
    accounts = new AccountsRepository(store.collection<AccountDocument>('accounts'));
    ledger = new LedgerRepository(ledgerCollection);
    book = new CreditBook(accounts, ledger, clock, testLogger);
    settlements = new Settlements(accounts, ledger, book, clock, testLogger);
    await book.reserve(workspaceId, {
      id: 'run_crash',
      amount: 10_000,
      ttlMs: 60_000,
      runId: 'run_crash',
      userId: '',
      sessionId: '',
      description: '',
    });
  });

  async function money() {
    const { balance, reserved, available, open_holds } = (await accounts.find(workspaceId))!;
    return { balance, reserved, available, open_holds };
  }

  test('drawn on the hold but not yet on the ledger, then the hold expired and was reaped: the replay bills nothing more', async () => {
    await ledger.insertNew([chargeEntry(settlement, charge, clock.now())]);
    expect(
      await accounts.draw(
        (await accounts.find(workspaceId))!,
        [{ holdId: 'run_crash', chargeId: charge.id, amount: charge.amount, userId: charge.userId, sessionId: '' }],
        clock.now(),
      ),
    ).toBeDefined();
    // killed here: the ledger entry has no balance_after yet
    clock.advance(61_000);
    expect(await book.releaseExpiredHolds()).toBe(1);

    await settlements.apply([settlement]);
    expect(await money()).toEqual({ balance: 96_000, reserved: 0, available: 96_000, open_holds: 0 });
    expect(await ledgerCollection.countDocuments({ workspace_id: workspaceId })).toBe(2);
    expect(await ledger.balancesAfter([charge.id])).toEqual(new Map([[charge.id, 96_000]]));
  });

  test('applied and recorded but the hold not released: the replay only releases it', async () => {
    await settlements.apply([{ ...settlement, final: false }]);
    await settlements.apply([settlement]);
    await settlements.apply([settlement]);
    expect(await money()).toEqual({ balance: 96_000, reserved: 0, available: 96_000, open_holds: 0 });
    expect(await ledgerCollection.countDocuments({ workspace_id: workspaceId })).toBe(2);
  });

  test('a charge id whose entry another workspace wrote but has not applied yet (no balance_after) is not applied here', async () => {
    // The other workspace's consumer was killed after writing its entry: nothing here says "applied".
    await ledger.insertOnce(chargeEntry({ ...settlement, workspaceId: 'ws_first' }, charge, clock.now()));
    await settlements.apply([settlement]);
    expect(await money()).toEqual({ balance: 100_000, reserved: 0, available: 100_000, open_holds: 0 });
    expect(await ledgerCollection.countDocuments({ workspace_id: workspaceId })).toBe(1); // the free grant only
    const theirs = await ledgerCollection.findOne({ _id: charge.id });
    expect(theirs).toMatchObject({ workspace_id: 'ws_first' });
    expect(theirs?.balance_after).toBeUndefined();
  });

  test('a charge id another workspace already used is not applied here', async () => {
    await settlements.apply([{ ...settlement, workspaceId: 'ws_first' }]);
    await settlements.apply([settlement]);
    expect(await money()).toEqual({ balance: 100_000, reserved: 0, available: 100_000, open_holds: 0 });
  });

  test('drawn on the account but killed before the ledger got the balance after: the replay records it, bills nothing more', async () => {
    await ledger.insertNew([chargeEntry(settlement, charge, clock.now())]);
    await accounts.draw(
      (await accounts.find(workspaceId))!,
      [{ holdId: 'run_crash', chargeId: charge.id, amount: charge.amount, userId: charge.userId, sessionId: '' }],
      clock.now(),
    );

    await settlements.apply([settlement]);
    expect(await money()).toEqual({ balance: 96_000, reserved: 0, available: 96_000, open_holds: 0 });
    expect(await ledger.balancesAfter([charge.id])).toEqual(new Map([[charge.id, 96_000]]));
  });

  test('one batch: a settlement delivered twice, two charges on one hold and another workspace, each applied once in order', async () => {
    const second = { ...charge, id: 'run_crash:1:0', amount: 7_000 };
    const other: Settlement = {
      ...settlement,
      id: 's2',
      workspaceId: 'ws_other',
      holdId: '',
      charges: [{ ...charge, id: 'other:0' }],
    };

    await settlements.apply([
      { ...settlement, charges: [charge, second] },
      other,
      { ...settlement, charges: [charge, second] },
    ]);

    // 11 credits drawn on a hold of 10: the credit beyond the hold comes out of the balance too.
    expect(await money()).toEqual({ balance: 89_000, reserved: 0, available: 89_000, open_holds: 0 });
    expect(await ledger.balancesAfter([charge.id, second.id])).toEqual(
      new Map([
        [charge.id, 96_000],
        [second.id, 89_000],
      ]),
    );
    expect(await accounts.find('ws_other')).toMatchObject({ balance: 96_000, available: 96_000, reserved: 0 });
  });

  test('another writer draws between the batch read and its bulk draw: the batch is applied once, after re-reading', async () => {
    const other = { ...charge, id: 'run_crash:1:0', amount: 3_000 };
    const readAccounts = accounts.findMany.bind(accounts);
    const meanwhile = new Settlements(accounts, ledger, book, clock, testLogger);
    jest.spyOn(accounts, 'findMany').mockImplementationOnce(async (ids) => {
      const read = await readAccounts(ids);
      await meanwhile.apply([{ ...settlement, id: 's0', charges: [other], final: false }]);
      return read;
    });

    await settlements.apply([settlement]);

    expect(await money()).toEqual({ balance: 93_000, reserved: 0, available: 93_000, open_holds: 0 });
    expect(await ledger.balancesAfter([other.id, charge.id])).toEqual(
      new Map([
        [other.id, 97_000],
        [charge.id, 93_000],
      ]),
    );
  });
});

/**
 * Two replicas over one store: each starts a Reserve from the account as it last wrote it, so these
 * are the cases where that copy is out of date.
 */
describe('reserve from the account as this replica last saw it', () => {
  const workspaceId = 'ws_replicas';
  let one: CreditBook;
  let other: CreditBook;
  let caps: SpendCapsRepository;
  const hold = (id: string, amount: number, sessionId = '') => ({
    id,
    amount,
    ttlMs: 60_000,
    runId: id,
    userId: 'usr_1',
    sessionId,
    description: '',
  });

  beforeEach(async () => {
    const store = new InMemoryDocumentStore();
    const clock = new ManualClock();
    const accountCollection = store.collection<AccountDocument>('accounts');
    const ledger = new LedgerRepository(store.collection<LedgerEntry>('ledger'));
    one = new CreditBook(new AccountsRepository(accountCollection), ledger, clock, testLogger);
    other = new CreditBook(new AccountsRepository(accountCollection), ledger, clock, testLogger);
    caps = new SpendCapsRepository(accountCollection);
    await one.reserve(workspaceId, hold('run_first', 10_000));
  });

  test('credits the other replica held meanwhile are not available here', async () => {
    await other.reserve(workspaceId, hold('run_other', 85_000));
    await expect(rejection(one.reserve(workspaceId, hold('run_late', 10_000)))).resolves.toMatchObject({
      status: 402,
      body: { error: 'insufficient_credits', available: 5 },
    });
    expect((await one.reserve(workspaceId, hold('run_fits', 5_000))).account.available).toBe(0);
  });

  test('a workspace cap the other replica set meanwhile applies here', async () => {
    await caps.setWorkspaceCap(workspaceId, 12_000);
    await expect(rejection(one.reserve(workspaceId, hold('run_capped', 5_000)))).resolves.toMatchObject({
      status: 402,
      body: { error: 'spending_cap_reached', cap_scope: 'workspace' },
    });
  });

  test('a session opened meanwhile with a cap counts the hold against it', async () => {
    await caps.openSession(workspaceId, 'ses_1', 1);
    await expect(rejection(one.reserve(workspaceId, hold('run_in_session', 50_000, 'ses_1')))).resolves.toMatchObject({
      status: 402,
      body: { error: 'session_limit' },
    });
  });

  test('a hold the other replica released meanwhile is held again, not answered as standing', async () => {
    await other.releaseHolds(workspaceId, ['run_first']);
    await one.reserve(workspaceId, hold('run_first', 10_000));
    expect(await other.account(workspaceId)).toMatchObject({ reserved: 10_000, open_holds: 1 });
  });
});
