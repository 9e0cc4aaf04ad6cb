import { api, sandboxCounters } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { linkToken, nthMailTo } from '../e2e/mail';
import { freshEmail, requestSignIn, sessionCookieOf, signIn, withCookie } from '../e2e/sign-in';

jest.setTimeout(120_000);

describe(`Workspace invites (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({}, mode, { shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  /** A new owner signed in by link, with their own workspace. */
  async function owner() {
    const { session, response } = await signIn(rde, freshEmail('owner'));
    return { bearer: withCookie(session), workspaceId: response.body.session.workspace_id as string };
  }
  const invite = (bearer: object, body: object) => api(rde, 'POST', '/api/v2/workspace/invites', { ...bearer, body });
  const invites = (bearer: object) => api(rde, 'GET', '/api/v2/workspace/invites', bearer);

  test('a fresh workspace lists no invites and a seat is always available', async () => {
    const { bearer } = await owner();
    const listed = await invites(bearer);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ invites: [], seat_available: true });
  });

  test('the owner invites with a spend cap: stored, listed, and the invitee is emailed the code', async () => {
    const { bearer } = await owner();
    const email = freshEmail('capped');
    const created = await invite(bearer, { email, spend_cap_usd: 25 });
    expect(created.status).toBe(201);
    expect(created.body.invite).toMatchObject({ email, spend_cap_usd: 25, accepted_at: null });
    expect((await nthMailTo(email)).text).toContain(created.body.invite_code);
    expect((await invites(bearer)).body.invites).toEqual([created.body.invite]);
  });

  test('an invalid invite email is 400 with a reason, and nothing is stored', async () => {
    const { bearer } = await owner();
    const refused = await invite(bearer, { email: 'not an email' });
    expect(refused.status).toBe(400);
    expect(refused.body.detail.reason).toBe('invalid_email');
    expect((await invites(bearer)).body.invites).toEqual([]);
  });

  test('a spend cap that is not above 0 is 422', async () => {
    const { bearer } = await owner();
    const refused = await invite(bearer, { email: freshEmail('zero'), spend_cap_usd: 0 });
    expect(refused.status).toBe(422);
    expect((await invites(bearer)).body.invites).toEqual([]);
  });

  test('accepting through the magic link joins the workspace as a member; then only the owner may invite', async () => {
    const { bearer, workspaceId } = await owner();
    const email = freshEmail('joins-by-link');
    await invite(bearer, { email });
    const { session } = await signIn(rde, email);
    const inInvited = await api(rde, 'GET', '/api/v2/me', withCookie(session, { 'x-workspace-id': workspaceId }));
    expect(inInvited.status).toBe(200);
    expect(inInvited.body.role).toBe('member');
    expect((await invites(bearer)).body.invites[0].accepted_at).toEqual(expect.any(String));
    const byMember = await invite(withCookie(session, { 'x-workspace-id': workspaceId }), { email: freshEmail('x') });
    expect(byMember.status).toBe(403);
  });

  test("the invite's spend_cap_usd becomes the member's cap on acceptance: a call past it is 402 cap_scope member, nothing charged", async () => {
    const { bearer, workspaceId } = await owner();
    const email = freshEmail('capped-joins');
    await invite(bearer, { email, spend_cap_usd: 0.05 });
    const { session } = await signIn(rde, email);
    const asMember = withCookie(session, { 'x-workspace-id': workspaceId });
    const me = await api(rde, 'GET', '/api/v2/me', asMember);
    expect(me.body.role).toBe('member');
    const caps = await api(rde, 'GET', '/api/v2/workspaces/members/spend-caps', bearer);
    expect(caps.body.members).toContainEqual(
      expect.objectContaining({ user_id: me.body.user.id, role: 'member', cap_usd: 0.05, spent_30d_usd: 0 }),
    );
    // One credit (9.8 cents on the entry plan's price) is past a 5-cent cap.
    const before = (await sandboxCounters(rde)).verimail?.verify?.requests ?? 0;
    const refused = await api(rde, 'POST', '/tools/verimail/verify', {
      ...asMember,
      body: { payload: { email: 'ada@example.com' } },
    });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ reason: 'spending_cap_reached', cap_scope: 'member', cap_usd: 0.05 });
    expect((await sandboxCounters(rde)).verimail?.verify?.requests ?? 0).toBe(before);
    const ledger = (await api(rde, 'GET', '/api/v2/billing/ledger.csv', bearer)).text;
    const kinds = ledger
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[2]);
    expect(kinds).toEqual(['grant']);
  });

  test('accepting through the 6-digit code joins the workspace', async () => {
    const { bearer, workspaceId } = await owner();
    const email = freshEmail('joins-by-code');
    await invite(bearer, { email });
    await nthMailTo(email);
    const { code } = await requestSignIn(rde, email, {}, 2);
    const verified = await api(rde, 'POST', '/api/v2/auth/magic-link/verify-code', {
      key: null,
      body: { email, code },
    });
    const session = sessionCookieOf(verified)!.value;
    expect(
      (await api(rde, 'GET', '/api/v2/me', withCookie(session, { 'x-workspace-id': workspaceId }))).body.role,
    ).toBe('member');
  });

  test('accepting through the password sign-up joins the workspace', async () => {
    const { bearer, workspaceId } = await owner();
    const email = freshEmail('joins-by-password');
    await invite(bearer, { email });
    await nthMailTo(email);
    await api(rde, 'POST', '/api/v2/auth/password/signup', { key: null, body: { email } });
    const done = await api(rde, 'POST', '/api/v2/auth/password/signup/complete', {
      key: null,
      body: { token: linkToken(await nthMailTo(email, 2)), password: 'a long enough password' },
    });
    const session = sessionCookieOf(done)!.value;
    expect(
      (await api(rde, 'GET', '/api/v2/me', withCookie(session, { 'x-workspace-id': workspaceId }))).body.role,
    ).toBe('member');
  });

  test('signing in with the invite code lands the session in the invited workspace', async () => {
    const { bearer, workspaceId } = await owner();
    const email = freshEmail('lands');
    const created = await invite(bearer, { email });
    await nthMailTo(email);
    const { token } = await requestSignIn(rde, email, { invite_code: created.body.invite_code }, 2);
    const verified = await api(rde, 'POST', '/api/v2/auth/magic-link/verify', { key: null, body: { token } });
    expect(verified.body.session.workspace_id).toBe(workspaceId);
  });

  test('logout revokes the session whatever workspace X-Workspace-Id switched to', async () => {
    const { bearer, workspaceId } = await owner();
    const email = freshEmail('switcher');
    await invite(bearer, { email });
    const { session } = await signIn(rde, email);
    const out = await api(rde, 'POST', '/api/v2/auth/logout', withCookie(session, { 'x-workspace-id': workspaceId }));
    expect(out.status).toBe(200);
    expect((await api(rde, 'GET', '/api/v2/me', withCookie(session))).status).toBe(401);
    expect((await api(rde, 'GET', '/api/v2/me', withCookie(session, { 'x-workspace-id': workspaceId }))).status).toBe(
      401,
    );
  });

  test('listing and inviting need a bearer', async () => {
    expect((await invites({ key: null })).status).toBe(401);
    expect((await invite({ key: null }, { email: freshEmail('anon') })).status).toBe(401);
  });
});
