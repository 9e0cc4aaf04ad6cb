import { InMemoryDocumentStore, ManualClock, type Caller } from '@rde/platform';
import { AccountEntries } from '../src/app/account-entries';
import { PlanGrants } from '../src/app/grants';
import { PlanChanges } from '../src/app/plan-changes';
import { DueDowngrades } from '../src/jobs/due-downgrades';
import { paymentProvider } from '../src/clients/stripe';
import { CreditBook } from '../src/app/credit-book';
import type { LedgerEntry } from '../src/domain/ledger';
import type { SubscriptionDocument } from '../src/domain/subscriptions';
import { AccountsRepository, type AccountDocument } from '../src/store/accounts';
import { SpendCapsRepository } from '../src/store/caps';
import { GrantsRepository } from '../src/store/grants';
import { LedgerRepository } from '../src/store/ledger';
import { SubscriptionsRepository, type ProviderEventDocument } from '../src/store/subscriptions';
import { testLogger } from './support';

/** stripe-mock from deploy/backends.sh: the provider calls are real HTTP against it. */
const API_BASE = process.env.RDE_STRIPE_API_BASE ?? 'http://127.0.0.1:12111';
const DAY_MS = 24 * 60 * 60_000;

/** Period-end jobs: a scheduled downgrade, and monthly plan grants with rollover, each applied once. */
describe('subscription periods', () => {
  const workspaceId = 'ws_downgrade';
  const owner: Caller = { workspaceId, userId: 'usr_owner', role: 'owner', keyId: '', sessionId: '', requestId: '' };
  let clock: ManualClock;
  let accounts: InMemoryDocumentStore;
  let repository: SubscriptionsRepository;
  let subscriptions: PlanChanges;
  let downgrades: DueDowngrades;
  let grants: PlanGrants;
  let ledger: LedgerRepository;

  beforeEach(async () => {
    const store = new InMemoryDocumentStore();
    accounts = store;
    clock = new ManualClock();
    const accountCollection = store.collection<AccountDocument>('accounts');
    ledger = new LedgerRepository(store.collection<LedgerEntry>('ledger'));
    const book = new CreditBook(new AccountsRepository(accountCollection), ledger, clock, testLogger);
    repository = new SubscriptionsRepository(
      store.collection<SubscriptionDocument>('subscriptions'),
      store.collection<ProviderEventDocument>('stripe_events'),
    );
    const grantRepository = new GrantsRepository(accountCollection);
    const entries = new AccountEntries(book, ledger, grantRepository);
    grants = new PlanGrants(book, entries, grantRepository, repository, clock, testLogger);
    const context = {
      provider: paymentProvider('sk_test_downgrades', API_BASE),
      subscriptions: repository,
      caps: new SpendCapsRepository(accountCollection),
      book,
      grants,
      clock,
      logger: testLogger,
      options: { webhookSecret: 'whsec_unused', returnUrl: 'http://127.0.0.1/billing' },
    };
    subscriptions = new PlanChanges(context);
    downgrades = new DueDowngrades(context);
    await book.account(workspaceId);
    await repository.applyProviderState(workspaceId, {
      stripe_customer_id: 'cus_1',
      stripe_subscription_id: 'sub_1',
      stripe_item_id: 'si_1',
      plan_id: 'pro',
      cadence: 'monthly',
      status: 'active',
      current_period_start: clock.now(),
      current_period_end: clock.now() + 30 * DAY_MS,
      cancel_at_period_end: false,
      event_created: Math.floor(clock.now() / 1000),
    });
  });

  const account = async () => (await accounts.collection<AccountDocument>('accounts').findOne({ _id: workspaceId }))!;

  test('waits for the period end, then applies the pending plan once and reprices the caps', async () => {
    const scheduled = await subscriptions.change(owner, 'starter', 'monthly');
    expect(scheduled).toMatchObject({
      applied: 'scheduled',
      subscription: { plan_id: 'pro', pending_plan_id: 'starter' },
    });

    clock.advance(29 * DAY_MS);
    expect(await downgrades.apply()).toBe(0);
    expect((await repository.find(workspaceId))?.plan_id).toBe('pro');

    clock.advance(DAY_MS);
    expect(await downgrades.apply()).toBe(1);
    const applied = await repository.find(workspaceId);
    expect(applied).toMatchObject({ plan_id: 'starter', pending_plan_id: null, pending_cadence: null });
    expect(applied?.cap_grace_until).toBeGreaterThan(clock.now());
    expect((await account()).plan_id).toBe('starter');

    expect(await downgrades.apply()).toBe(0);
  });

  test('a cancellation before the period end drops the pending downgrade', async () => {
    await subscriptions.change(owner, 'starter', 'monthly');
    await subscriptions.cancel(owner, false);
    clock.advance(31 * DAY_MS);
    expect(await downgrades.apply()).toBe(0);
    expect((await repository.find(workspaceId))?.plan_id).toBe('pro');
  });

  test('monthly grants: one per month due, rollover cut to the cap first, a rerun grants nothing', async () => {
    await repository.startGrants(workspaceId, clock.now());
    expect(await grants.grantDue()).toBe(1);
    // The free grant (100) carries over under the cap: 100 + Pro's 5,000.
    expect((await account()).balance).toBe(5_100_000);
    expect(await grants.grantDue()).toBe(0);

    clock.advance(31 * DAY_MS);
    expect(await grants.grantDue()).toBe(1);
    // At most two months of plan credits right after a grant: 100 of the 5,100 carried expire.
    expect((await account()).balance).toBe(10_000_000);
    const entries = await ledger.recent(workspaceId, 10);
    const byBalance = entries.map((entry) => [entry.kind, entry.amount, entry.balance_after]);
    byBalance.sort((a, b) => Number(a[2]) - Number(b[2]));
    expect(byBalance).toEqual([
      ['grant', 100_000, 100_000],
      ['correction', -100_000, 5_000_000],
      ['grant', 5_000_000, 5_100_000],
      ['grant', 5_000_000, 10_000_000],
    ]);
    expect(await grants.grantDue()).toBe(0);
    expect((await ledger.recent(workspaceId, 10)).length).toBe(4);
  });
});
