import { api, NOT_AUTHENTICATED, untilSettled } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { newTeam, type Team } from '../e2e/teams';

jest.setTimeout(180_000);

/** 1 credit per call: a charge the removed member leaves on the ledger. */
const PAID_CALL = '/tools/verimail/verify';
const PAID_BODY = { payload: { email: 'ada@example.com' } };
/** How long a gateway may keep trusting a resolved key (RDE_BEARER_CACHE_MS, default), with room for a slow machine. */
const BEARER_CACHE_WAIT_MS = 2_000 + 10_000;
const SETTLED_WAIT_MS = 120_000;
const REMOVE_OWNER_ONLY = { detail: 'Only the workspace owner can remove members' };
const ROLES_OWNER_ONLY = { detail: "Only the workspace owner can change members' roles" };
const NOT_A_MEMBER = { detail: 'Member not found in this workspace' };
const LAST_OWNER = { detail: "This is the workspace's last owner: make another member an owner first" };

interface MemberRow {
  user_id: string;
  email: string;
  role: 'owner' | 'member';
  cap_usd: number | null;
  spent_30d_usd: number;
}

/**
 * Removing a member and changing a role (decision 0087; the spec's Billing member routes and
 * Authentication rule 8's owner-only rule): who may, the last owner kept, what a removal ends.
 */
describe(`workspace members: removal and roles (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({}, mode, { shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const team = () => newTeam(rde, 'members');
  const member = (userId: string) => `/api/v2/workspaces/members/${encodeURIComponent(userId)}`;
  const remove = (key: string, userId: string) => api(rde, 'DELETE', member(userId), { key });
  const setRole = (key: string, userId: string, body: unknown) =>
    api(rde, 'PUT', `${member(userId)}/role`, { key, body });
  const rows = async (key: string): Promise<MemberRow[]> =>
    (await api(rde, 'GET', '/api/v2/workspaces/members/spend-caps', { key })).body.members;
  const roleOf = async (key: string, userId: string) => (await rows(key)).find((row) => row.user_id === userId)?.role;
  const me = async (key: string) => (await api(rde, 'GET', '/api/v2/me', { key })).body;
  const refusedSoon = (key: string) =>
    waitUntil(async () => (await api(rde, 'GET', '/api/v2/me', { key })).status === 401, BEARER_CACHE_WAIT_MS);
  /** A second key of the member, minted by them before the removal. */
  const secondKey = async (key: string) =>
    (await api(rde, 'POST', '/api/v2/keys', { key, body: { name: 'second' } })).body.key as string;
  const ownerIdOf = async ({ owner }: Team) => (await me(owner)).user.id as string;

  test('the owner removes a member: they leave the list, every key of theirs gets 401, their charges stay in the ledger', async () => {
    const t = await team();
    const second = await secondKey(t.member);
    expect((await api(rde, 'POST', PAID_CALL, { key: t.member, body: PAID_BODY })).status).toBe(200);
    // A fresh distributed stack's first settlement waits for its Kafka consumers to join: room for a loaded machine.
    await untilSettled(rde, t.owner, SETTLED_WAIT_MS);
    const balanceBefore = (await api(rde, 'GET', '/billing/balance', { key: t.owner })).body.balance;
    const ledgerBefore = (await api(rde, 'GET', '/api/v2/billing/ledger.csv', { key: t.owner })).text;
    expect(ledgerBefore).toContain(t.memberId);

    const removed = await remove(t.owner, t.memberId);
    expect({ status: removed.status, body: removed.body }).toEqual({
      status: 200,
      body: { ok: true, deleted: t.memberId },
    });
    expect((await rows(t.owner)).map((row) => row.user_id)).toEqual([await ownerIdOf(t)]);
    await refusedSoon(t.member);
    for (const key of [t.member, second]) {
      const refused = await api(rde, 'GET', '/api/v2/me', { key });
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: NOT_AUTHENTICATED.refused });
      expect((await api(rde, 'POST', PAID_CALL, { key, body: PAID_BODY })).status).toBe(401);
    }
    const keys = (await api(rde, 'GET', '/api/v2/keys', { key: t.owner })).body.keys as { created_by: string }[];
    expect(keys.filter((key) => key.created_by === t.memberId)).toEqual([]);
    expect((await api(rde, 'GET', '/billing/balance', { key: t.owner })).body.balance).toBe(balanceBefore);
    expect((await api(rde, 'GET', '/api/v2/billing/ledger.csv', { key: t.owner })).text).toBe(ledgerBefore);
  });

  test('a member may remove themselves (leave); their key then gets 401 and the owner stays', async () => {
    const t = await team();
    const left = await remove(t.member, t.memberId);
    expect({ status: left.status, body: left.body }).toEqual({ status: 200, body: { ok: true, deleted: t.memberId } });
    await refusedSoon(t.member);
    expect((await rows(t.owner)).map((row) => row.role)).toEqual(['owner']);
  });

  test('a member removing anyone else is 403 with the owner-only detail, and nothing changes', async () => {
    const t = await team();
    const ownerId = await ownerIdOf(t);
    const before = await rows(t.owner);
    const refused = await remove(t.member, ownerId);
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: REMOVE_OWNER_ONLY });
    // Refused before any lookup: an id outside the workspace is the same 403, telling nothing.
    expect((await remove(t.member, 'usr_nobody')).body).toEqual(REMOVE_OWNER_ONLY);
    expect(await rows(t.owner)).toEqual(before);
    expect((await me(t.owner)).role).toBe('owner');
  });

  test('a user of another workspace is 404 like a nonexistent one, on both routes, and nothing changes', async () => {
    const [t, other] = [await team(), await team()];
    for (const userId of [other.memberId, 'usr_nobody']) {
      const removed = await remove(t.owner, userId);
      expect({ status: removed.status, body: removed.body }).toEqual({ status: 404, body: NOT_A_MEMBER });
      const changed = await setRole(t.owner, userId, { role: 'owner' });
      expect({ status: changed.status, body: changed.body }).toEqual({ status: 404, body: NOT_A_MEMBER });
    }
    expect((await me(other.member)).role).toBe('member');
    expect(await roleOf(other.owner, other.memberId)).toBe('member');
  });

  test('the last owner cannot be removed: 409 with a clear detail, and they stay the owner', async () => {
    const t = await team();
    const ownerId = await ownerIdOf(t);
    const refused = await remove(t.owner, ownerId);
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 409, body: LAST_OWNER });
    expect(await roleOf(t.owner, ownerId)).toBe('owner');
    expect((await me(t.owner)).workspace.owner_user_id).toBe(ownerId);
  });

  test('the owner changes a member’s role: the answer is the member row, and the new role holds for the member’s key', async () => {
    const t = await team();
    const promoted = await setRole(t.owner, t.memberId, { role: 'owner' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toEqual({
      user_id: t.memberId,
      email: expect.stringMatching(/^members\.member\..+@example\.com$/),
      role: 'owner',
      cap_usd: null,
      spent_30d_usd: 0,
    });
    expect((await rows(t.owner)).find((row) => row.user_id === t.memberId)).toEqual(promoted.body);
    // Owner powers follow: the promoted member may change billing.
    await waitUntil(async () => (await me(t.member)).role === 'owner', BEARER_CACHE_WAIT_MS);
    const cap = await api(rde, 'PUT', '/api/v2/billing/spending-cap', { key: t.member, body: { cap: 50 } });
    expect(cap.status).toBe(200);
    const again = await setRole(t.owner, t.memberId, { role: 'owner' });
    expect({ status: again.status, role: again.body.role }).toEqual({ status: 200, role: 'owner' });
  });

  test('with two owners, one can demote or remove the other; the named owner passes to the one left', async () => {
    const t = await team();
    const ownerId = await ownerIdOf(t);
    await setRole(t.owner, t.memberId, { role: 'owner' });
    const demoted = await setRole(t.member, ownerId, { role: 'member' });
    expect({ status: demoted.status, role: demoted.body.role }).toEqual({ status: 200, role: 'member' });
    expect((await me(t.member)).workspace.owner_user_id).toBe(t.memberId);
    await setRole(t.member, ownerId, { role: 'owner' });
    const removed = await remove(t.owner, t.memberId);
    expect(removed.status).toBe(200);
    expect((await rows(t.owner)).map((row) => [row.user_id, row.role])).toEqual([[ownerId, 'owner']]);
  });

  test('a member changing a role is 403 with the owner-only detail, and nothing changes', async () => {
    const t = await team();
    const refused = await setRole(t.member, t.memberId, { role: 'owner' });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: ROLES_OWNER_ONLY });
    expect(await roleOf(t.owner, t.memberId)).toBe('member');
    expect((await me(t.member)).role).toBe('member');
  });

  test('demoting the last owner is 409 with a clear detail, and they stay the owner', async () => {
    const t = await team();
    const ownerId = await ownerIdOf(t);
    const refused = await setRole(t.owner, ownerId, { role: 'member' });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 409, body: LAST_OWNER });
    expect(await roleOf(t.owner, ownerId)).toBe('owner');
  });

  test('a role body that is not {role: owner|member} is 422 naming the problem (400 when not JSON), and nothing changes', async () => {
    const t = await team();
    const bodies: [unknown, (string | number)[]][] = [
      [{ role: 'admin' }, ['body', 'role']],
      [{ role: 'OWNER' }, ['body', 'role']],
      [{}, ['body', 'role']],
      [{ role: 7 }, ['body', 'role']],
      [{ role: 'owner', admin: true }, ['body', 'admin']],
    ];
    for (const [body, loc] of bodies) {
      const refused = await setRole(t.owner, t.memberId, body);
      expect(refused.status).toBe(422);
      // Each problem named once, all of them at this field (a number for role is both its type and its enum).
      const places = (refused.body.detail as { loc: (string | number)[] }[]).map((issue) => issue.loc);
      expect(new Set(places.map((place) => place.join('.')))).toEqual(new Set([loc.join('.')]));
    }
    const malformed = await fetch(`${rde.baseUrl}${member(t.memberId)}/role`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${t.owner}`, 'content-type': 'application/json' },
      body: '{"role": ',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { detail: string }).detail).toMatch(/^Body is not valid JSON/);
    expect(await roleOf(t.owner, t.memberId)).toBe('member');
  });

  test('without a key both routes are 401 and nothing changes', async () => {
    const t = await team();
    expect((await api(rde, 'DELETE', member(t.memberId), { key: null })).body).toEqual(NOT_AUTHENTICATED.missing);
    const put = await api(rde, 'PUT', `${member(t.memberId)}/role`, { key: null, body: { role: 'owner' } });
    expect({ status: put.status, body: put.body }).toEqual({ status: 401, body: NOT_AUTHENTICATED.missing });
    expect(await roleOf(t.owner, t.memberId)).toBe('member');
  });

  test('/openapi.json lists both routes with their error answers', async () => {
    const paths = (await api(rde, 'GET', '/openapi.json', { key: null })).body.paths;
    const removal = paths['/api/v2/workspaces/members/{user_id}'].delete;
    const change = paths['/api/v2/workspaces/members/{user_id}/role'].put;
    for (const operation of [removal, change]) {
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '403', '404', '409']));
    }
    expect(change.requestBody.content['application/json'].schema.properties.role.enum).toEqual(['owner', 'member']);
  });
});
