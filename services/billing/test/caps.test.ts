import { dayKey, fitUnderCaps, memberKey, type CapFields } from '../src/domain/caps';

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
