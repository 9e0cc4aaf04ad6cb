import { createClient, InMemoryDocumentStore, ManualClock, type Collection } from '@rde/platform';
import { billingGrants } from '@rde/proto';
import { AccountEntries } from '../src/app/account-entries';
import { OperatorGrants } from '../src/app/operator-grants';
import { CreditBook } from '../src/app/credit-book';
import type { LedgerEntry } from '../src/domain/ledger';
import { checkedGrant, operatorGrantEntry } from '../src/domain/operator-grants';
import { AccountsRepository, type AccountDocument } from '../src/store/accounts';
import { GrantsRepository } from '../src/store/grants';
import { LedgerRepository } from '../src/store/ledger';
import { BACKEND_KINDS, ledgerOf, moneyOf, rejection, startBilling, testLogger, type RunningBilling } from './support';

const request = (workspaceId: string, overrides: Partial<billingGrants.GrantCreditsRequest> = {}) => ({
  workspaceId,
  grantId: 'support-1',
  credits: 250,
  reason: 'Sorry for the outage',
  grantedBy: 'ops@example',
  ...overrides,
});

/** Decision 0051: GrantCredits over gRPC, on every backend kind the run has. */
describe.each(BACKEND_KINDS)('GrantCredits (%s backends)', (kind) => {
  let billing: RunningBilling;
  let grants: ReturnType<typeof createClient<typeof billingGrants.CreditGrantServiceService>>;

  beforeAll(async () => {
    billing = await startBilling(kind);
    grants = createClient(billingGrants.CreditGrantServiceService, { address: billing.address, deadlineMs: 5_000 });
  });

  afterAll(async () => {
    grants?.close();
    await billing?.stop();
  });

  test('racing retries of one grant id write one entry and add its credits once, after the free grant', async () => {
    const workspaceId = `ws_grant_race_${kind}`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => grants.rpc.grantCredits(request(workspaceId))));
    expect(new Set(answers.map(({ entry }) => JSON.stringify(entry))).size).toBe(1);
    expect(answers[0]).toMatchObject({
      entry: { id: 'grant:operator:support-1', kind: 'grant', description: 'Sorry for the outage' },
      grantedBy: 'ops@example',
    });
    expect(await moneyOf(billing.rpc, workspaceId)).toMatchObject({ balance: 350, available: 350 });
    expect(await ledgerOf(billing.rpc, workspaceId)).toEqual([
      { id: `grant:free:${workspaceId}`, kind: 'grant', amount: 100, balanceAfter: 100 },
      { id: 'grant:operator:support-1', kind: 'grant', amount: 250, balanceAfter: 350 },
    ]);
  });

  test.each([
    ['no workspace', { workspaceId: '' }, 'workspace_id must be 1 to 128 characters'],
    ['a grant id with a dot', { grantId: 'a.b' }, 'grant_id must be 1 to 128 letters, digits, _ or -'],
    ['0 credits', { credits: 0 }, 'credits must be a whole number from 1 to 1000000'],
    ['negative credits', { credits: -3 }, 'credits must be a whole number from 1 to 1000000'],
    ['over a million credits', { credits: 1_000_001 }, 'credits must be a whole number from 1 to 1000000'],
    ['a blank reason', { reason: ' ' }, 'reason must be 1 to 200 characters'],
    ['no granted_by', { grantedBy: '' }, 'granted_by must be 1 to 200 characters'],
  ])('%s is a 400 that writes nothing', async (_case, overrides, detail) => {
    const workspaceId = `ws_grant_bad_${kind}`;
    expect(await rejection(grants.rpc.grantCredits(request(workspaceId, overrides)))).toEqual({
      status: 400,
      body: { detail },
    });
    expect(await ledgerOf(billing.rpc, workspaceId)).toEqual([expect.objectContaining({ kind: 'grant', amount: 100 })]);
  });
});

/** The grant's two writes (ledger, then account) interrupted between and after them, then retried. */
describe('operator grant crash windows', () => {
  const workspaceId = 'ws_grant_crash';
  let clock: ManualClock;
  let accounts: AccountsRepository;
  let ledgerCollection: Collection<LedgerEntry>;
  let book: CreditBook;
  let operatorGrants: OperatorGrants;
  let grants: GrantsRepository;

  beforeEach(async () => {
    const store = new InMemoryDocumentStore();
    clock = new ManualClock();
    const accountCollection = store.collection<AccountDocument>('accounts');
    accounts = new AccountsRepository(accountCollection);
    ledgerCollection = store.collection<LedgerEntry>('ledger');
    const ledger = new LedgerRepository(ledgerCollection);
    book = new CreditBook(accounts, ledger, clock, testLogger);
    grants = new GrantsRepository(accountCollection);
    operatorGrants = new OperatorGrants(book, ledger, new AccountEntries(book, ledger, grants), clock, testLogger);
  });

  const entry = () => operatorGrantEntry(checkedGrant(request(workspaceId)), clock.now());
  const money = async () => {
    const { balance, available, purchased, purchased_total } = (await accounts.find(workspaceId))!;
    return { balance, available, purchased, purchased_total };
  };
  const once = { balance: 350_000, available: 350_000, purchased: 250_000, purchased_total: 250_000 };

  test('written on the ledger but never applied: the retry applies it once and records its balance after', async () => {
    await book.account(workspaceId);
    await ledgerCollection.insertOne(entry());
    // killed here
    expect(await operatorGrants.grant(request(workspaceId))).toMatchObject({ balance_after: 350_000 });
    expect(await money()).toEqual(once);
  });

  test('applied but its balance after not recorded: the retry only records it', async () => {
    await book.account(workspaceId);
    await ledgerCollection.insertOne(entry());
    expect(await grants.apply((await accounts.find(workspaceId))!, entry()._id, entry().amount, true)).toBe(true);
    // killed here
    await operatorGrants.grant(request(workspaceId));
    await operatorGrants.grant(request(workspaceId));
    expect(await money()).toEqual(once);
    expect((await ledgerCollection.findOne({ _id: entry()._id }))?.balance_after).toBe(350_000);
  });

  test('the same grant id for another amount is a 409 and changes nothing', async () => {
    await operatorGrants.grant(request(workspaceId));
    expect(await rejection(operatorGrants.grant(request(workspaceId, { credits: 251 })))).toEqual({
      status: 409,
      body: { detail: 'grant_id support-1 was already used for another grant (workspace, credits or reason differ)' },
    });
    expect(await money()).toEqual(once);
  });
});
