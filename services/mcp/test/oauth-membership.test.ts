import { errors, ManualClock } from '@rde/platform';
import { Membership } from '../src/app/oauth/membership';
import type { AuthClient } from '../src/clients';

/**
 * The membership check at use trusts auth's answer for a moment (decision 0029), on a settable
 * clock; the black-box suite (test/spec/mcp-oauth-membership) checks the removal end to end.
 */
describe('OAuth grant membership check', () => {
  const CACHE_MS = 2_000;
  let member: boolean;
  let asked: number;
  let clock: ManualClock;
  let membership: Membership;

  beforeEach(() => {
    member = true;
    asked = 0;
    clock = new ManualClock();
    const auth = {
      getMembership: async () => {
        asked++;
        if (!member) throw errors.notFound('Not a member of this workspace');
        return { role: 'member' };
      },
    } as unknown as AuthClient;
    membership = new Membership(auth, clock, CACHE_MS);
  });

  test('at use, a member is asked about once per cache period; a removal shows once it lapses', async () => {
    expect(await membership.recent('usr_1', 'ws_1')).toBe('member');
    member = false;
    clock.advance(CACHE_MS - 1);
    expect(await membership.recent('usr_1', 'ws_1')).toBe('member');
    expect(asked).toBe(1);
    clock.advance(1);
    expect(await membership.recent('usr_1', 'ws_1')).toBeUndefined();
    expect(asked).toBe(2);
  });

  test('a refusal is never cached, and `current` always asks', async () => {
    member = false;
    expect(await membership.recent('usr_1', 'ws_1')).toBeUndefined();
    member = true;
    expect(await membership.recent('usr_1', 'ws_1')).toBe('member');
    member = false;
    expect(await membership.current('usr_1', 'ws_1')).toBeUndefined();
    expect(asked).toBe(3);
  });

  test('auth failing is an error, never "not a member"', async () => {
    const down = new Membership(
      { getMembership: async () => Promise.reject(errors.unavailable('auth is down')) } as unknown as AuthClient,
      clock,
      CACHE_MS,
    );
    await expect(down.recent('usr_1', 'ws_1')).rejects.toMatchObject({ httpStatus: 503 });
  });
});
