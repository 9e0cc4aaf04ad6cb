import { InMemoryDocumentStore, ManualClock } from '@rde/platform';
import { CreditBook } from '../src/app/credit-book';
import { millicredits } from '../src/domain/credits';
import { buckets } from '../src/domain/overview';
import { PLAN_CATALOG } from '../src/domain/plans';
import { topupTierCovering } from '../src/domain/purchases';
import { AccountsRepository, type AccountDocument, type Draw } from '../src/store/accounts';
import { GrantsRepository } from '../src/store/grants';
import { LedgerRepository } from '../src/store/ledger';
import { testLogger } from './support';

/** Purchased credits are spent after plan credits: the draw lowers the counter only past the plan part (decision 0040). */
describe('purchased credits bucket', () => {
  const workspaceId = 'ws_purchase';
  let accounts: AccountsRepository;
  let grants: GrantsRepository;

  beforeEach(async () => {
    const store = new InMemoryDocumentStore();
    const collection = store.collection<AccountDocument>('accounts');
    accounts = new AccountsRepository(collection);
    grants = new GrantsRepository(collection);
    const clock = new ManualClock();
    const book = new CreditBook(accounts, new LedgerRepository(store.collection('ledger')), clock, testLogger);
    await book.account(workspaceId); // the free grant: 100 plan credits
    expect(await grants.apply((await accounts.find(workspaceId))!, 'purchase:cs_1', millicredits(500), true)).toBe(
      true,
    );
  });

  const lateCharge = (id: string, credits: number): Draw => ({
    holdId: '',
    chargeId: id,
    amount: millicredits(credits),
    userId: 'usr_1',
    sessionId: '',
  });

  async function bucketsNow() {
    const { balance, plan_credits, purchased_credits, plan_remaining, purchased_remaining } = buckets(
      (await accounts.find(workspaceId))!,
    );
    return { balance, plan_credits, purchased_credits, plan_remaining, purchased_remaining };
  }

  async function draw(credits: number, id: string) {
    const account = (await accounts.find(workspaceId))!;
    expect(await accounts.draw(account, [lateCharge(id, credits)], 0)).toBeDefined();
  }

  test('a purchase adds to the balance and to the purchased counter in one write', async () => {
    expect(await bucketsNow()).toEqual({
      balance: 600,
      plan_credits: 100,
      purchased_credits: 500,
      plan_remaining: 100,
      purchased_remaining: 500,
    });
  });

  test('a draw within the plan credits leaves the purchased ones whole', async () => {
    await draw(60, 'c1');
    expect(await bucketsNow()).toMatchObject({ balance: 540, plan_remaining: 40, purchased_remaining: 500 });
    expect((await accounts.find(workspaceId))!.purchased).toBe(millicredits(500));
  });

  test('a draw past the plan credits lowers the purchased counter by what it took of them', async () => {
    await draw(60, 'c1');
    await draw(70, 'c2');
    expect(await bucketsNow()).toMatchObject({ balance: 470, plan_remaining: 0, purchased_remaining: 470 });
    expect((await accounts.find(workspaceId))!.purchased).toBe(millicredits(470));
  });

  test('an overdraft empties the purchased counter and never makes it negative', async () => {
    await draw(650, 'c1');
    expect(await bucketsNow()).toMatchObject({ balance: -50, plan_remaining: 0, purchased_remaining: 0 });
    expect((await accounts.find(workspaceId))!.purchased).toBe(0);
  });

  test('a draw read before a purchase landed fails its guard even when the balance came back to what it read', async () => {
    const stale = (await accounts.find(workspaceId))!;
    await grants.apply(stale, 'purchase:cs_2', millicredits(500), true);
    await draw(500, 'c1'); // the balance is back where the stale read saw it, the counter is not
    expect(await accounts.draw(stale, [lateCharge('c2', 10)], 0)).toBeUndefined();
  });

  test('a purchase is applied once per entry id', async () => {
    expect(await grants.apply((await accounts.find(workspaceId))!, 'purchase:cs_1', millicredits(500), true)).toBe(
      false,
    );
    expect(await bucketsNow()).toMatchObject({ balance: 600, purchased_credits: 500 });
  });
});

/** Decision 0046: the tier a run's 402 `checkout_url` buys. */
describe('the top-up tier covering a shortfall', () => {
  test('is the smallest catalog tier at least as large as what is needed, the largest when none is', () => {
    const tiers = PLAN_CATALOG.topup_tiers.map((tier) => tier.credits).sort((a, b) => a - b);
    expect(topupTierCovering(1).credits).toBe(tiers[0]);
    expect(topupTierCovering(millicredits(tiers[0]!)).credits).toBe(tiers[0]);
    expect(topupTierCovering(millicredits(tiers[0]!) + 1).credits).toBe(tiers[1]);
    expect(topupTierCovering(millicredits(tiers[tiers.length - 1]! * 10)).credits).toBe(tiers[tiers.length - 1]);
  });
});
