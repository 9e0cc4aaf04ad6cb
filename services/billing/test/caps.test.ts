import { InMemoryDocumentStore, type Collection } from '@rde/platform';
import { dayKey, fitUnderCaps, memberKey, type CapFields } from '../src/domain/caps';
import { AccountsRepository, type AccountDocument } from '../src/store/accounts';
import { capGuard } from '../src/store/cap-guard';

/** Decision 0020 and enrichment rule 9: what a Reserve may hold under the caps. */
describe('fitUnderCaps', () => {
  const now = Date.UTC(2026, 10, 26, 12);
  const today = dayKey(now);
  const tags = { day: today, member: memberKey('usr_a') };
  const account = (fields: Partial<CapFields>): CapFields => ({ plan_id: 'starter', ...fields });

  test('an amount within every cap is held whole', () => {
    expect(fitUnderCaps(account({ workspace_cap: 10_000 }), tags, 6_000, 2_000, now)).toEqual({ amount: 6_000 });
  });

  test('work priced per unit is trimmed to the units the workspace cap still allows', () => {
    const fit = fitUnderCaps(account({ workspace_cap: 10_000, spend: { [today]: 3_000 } }), tags, 10_000, 2_000, now);
    expect(fit).toMatchObject({ amount: 6_000, trimmedBy: { reason: 'spending_cap_reached', cap_scope: 'workspace' } });
  });

  test('the tighter of the member and workspace caps trims, and names its scope', () => {
    // Starter: 1 cent buys 500 × 1000 / 4900 = 102 millicredits.
    const capped = account({
      workspace_cap: 100_000,
      member_caps: { [tags.member]: { user_id: 'usr_a', cap_cents: 50 } },
    });
    const fit = fitUnderCaps(capped, tags, 10_000, 1_000, now);
    expect(fit).toMatchObject({ amount: 5_000, trimmedBy: { cap_scope: 'member' } });
  });

  test('without a unit, or when not one unit fits, the Reserve is refused', () => {
    const full = account({ workspace_cap: 10_000, spend: { [today]: 9_000 } });
    expect(fitUnderCaps(full, tags, 4_000, 0, now)).toMatchObject({ refusal: { cap_scope: 'workspace' } });
    expect(fitUnderCaps(full, tags, 4_000, 2_000, now)).toMatchObject({ refusal: { cap_scope: 'workspace' } });
  });

  test('a session cap is never trimmed around', () => {
    const session = account({ sessions: { ses_1: { cap_cents: 1, spent: 0, ended: false } } });
    const fit = fitUnderCaps(session, { ...tags, session: 'ses_1' }, 4_000, 1_000, now);
    expect(fit).toMatchObject({ refusal: { reason: 'session_limit' } });
  });
});

/** Decision 0020: the cap check folded into the hold's guarded write, raced from one read. */
describe('capGuard', () => {
  const now = Date.UTC(2026, 10, 26, 12);
  const tags = { day: dayKey(now) };
  let collection: Collection<AccountDocument>;
  let accounts: AccountsRepository;

  beforeEach(async () => {
    collection = new InMemoryDocumentStore().collection<AccountDocument>('accounts');
    accounts = new AccountsRepository(collection);
    await accounts.open('ws_cap', 100_000, now);
  });

  /** Two Reserves that checked the cap on the same read, written one after the other. */
  async function raceFromOneRead(cap: number, amount: number) {
    // 3 credits spent in the window: 1 today, 2 yesterday.
    const spend = { [tags.day]: 1_000, [dayKey(now - 86_400_000)]: 2_000 };
    await collection.updateOne({ _id: 'ws_cap' }, { $set: { workspace_cap: cap, spend } });
    const read = (await accounts.find('ws_cap'))!;
    const hold = (id: string) => ({ id, amount, expiresAt: now + 1, runId: id, description: '', createdAt: now });
    const first = await accounts.reserve('ws_cap', hold('run_a'), tags, capGuard(read, tags, amount, now));
    const second = await accounts.reserve('ws_cap', hold('run_b'), tags, capGuard(read, tags, amount, now));
    return { first: first !== null, second: second !== null };
  }

  test('concurrent Reserves that fit together do not fail each other', async () => {
    expect(await raceFromOneRead(10_000, 3_500)).toEqual({ first: true, second: true });
  });

  test('of two that would cross the cap together, the second write fails (then re-reads and is refused)', async () => {
    expect(await raceFromOneRead(10_000, 4_000)).toEqual({ first: true, second: false });
  });
});
