import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { freshEmail, requestSignIn, signIn, withCookie } from '../e2e/sign-in';

jest.setTimeout(120_000);

describe(`Sign-in: CLI claims (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({}, mode, { shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const start = async () => {
    const started = await api(rde, 'POST', '/api/v2/auth/cli/start', { key: null });
    expect(started.status).toBe(200);
    return started.body.claim_id as string;
  };
  const poll = (claimId: string) => api(rde, 'GET', `/api/v2/auth/cli/poll/${claimId}`, { key: null });
  const approve = (
    claimId: string,
    bearer: { key?: string | null; headers?: Record<string, string> },
    inviteCode?: string,
  ) =>
    api(rde, 'POST', '/api/v2/auth/cli/approve', {
      ...bearer,
      body: { claim_id: claimId, ...(inviteCode ? { invite_code: inviteCode } : {}) },
    });
  /** Polls once for the bearer and asks /api/v2/me whom it acts as. */
  const bearerOf = async (claimId: string) => {
    const polled = await poll(claimId);
    expect(polled.status).toBe(200);
    expect(polled.body).toEqual({
      status: 'approved',
      token: expect.stringMatching(/^rde_live_/),
      workspace_id: expect.any(String),
    });
    const me = await api(rde, 'GET', '/api/v2/me', { key: polled.body.token });
    expect(me.status).toBe(200);
    return { token: polled.body.token as string, me: me.body };
  };

  test('start returns the claim id with approval and poll URLs; the claim waits as pending', async () => {
    const started = await api(rde, 'POST', '/api/v2/auth/cli/start', { key: null, body: { client: 'rde-cli 1.0' } });
    expect(started.status).toBe(200);
    const { claim_id: claimId, approval_url: approvalUrl, poll_url: pollUrl } = started.body;
    expect(approvalUrl).toBe(`${rde.baseUrl}/api/v2/auth/cli/claim/${claimId}`);
    expect(pollUrl).toBe(`${rde.baseUrl}/api/v2/auth/cli/poll/${claimId}`);
    expect(Date.parse(started.body.expires_at)).toBeGreaterThan(Date.now());
    expect((await poll(claimId)).body).toEqual({ status: 'pending' });
  });

  test('the claim page redirects to the same-origin sign-in page carrying the claim token', async () => {
    const claimId = await start();
    const page = await api(rde, 'GET', `/api/v2/auth/cli/claim/${claimId}?ref=install`, { key: null });
    expect(page.status).toBe(302);
    const location = new URL(page.headers.get('location')!, rde.baseUrl);
    expect(location.origin).toBe(rde.baseUrl);
    expect(location.pathname).toBe('/auth/signin');
    expect(location.searchParams.get('cli_token')).toBe(claimId);
    expect(location.searchParams.get('ref')).toBe('install');
  });

  test('an unknown claim is 404 on the claim page, the poll and approval', async () => {
    const unknown = 'rde_clm_UnknownClaimThatWasNeverStarted000000';
    expect((await api(rde, 'GET', `/api/v2/auth/cli/claim/${unknown}`, { key: null })).status).toBe(404);
    expect((await poll(unknown)).status).toBe(404);
    expect((await api(rde, 'POST', `/api/v2/auth/cli/claim/${unknown}`, { key: null, body: {} })).status).toBe(404);
  });

  test('legacy anonymous approve ignores any identity in the body; the poll hands over the bearer once', async () => {
    const claimId = await start();
    const email = freshEmail('claimed');
    const approved = await api(rde, 'POST', `/api/v2/auth/cli/claim/${claimId}`, {
      key: null,
      body: { email, user_id: 'usr_dev' },
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toEqual({ ok: true, status: 'approved', workspace_id: expect.any(String) });
    const { me } = await bearerOf(claimId);
    expect(me.user.email).not.toBe(email);
    expect(me.workspace.id).toBe(approved.body.workspace_id);
    expect((await poll(claimId)).body).toEqual({ status: 'delivered' });
  });

  test('a claim is approved once: a second approval is 409', async () => {
    const claimId = await start();
    expect((await api(rde, 'POST', `/api/v2/auth/cli/claim/${claimId}`, { key: null, body: {} })).status).toBe(200);
    const again = await api(rde, 'POST', `/api/v2/auth/cli/claim/${claimId}`, { key: null, body: {} });
    expect(again.status).toBe(409);
  });

  test('a signed-in browser approves instantly: the bearer acts as that user in that workspace', async () => {
    const email = freshEmail('approver');
    const { session, response } = await signIn(rde, email);
    const claimId = await start();
    const approved = await approve(claimId, withCookie(session));
    expect(approved.status).toBe(200);
    expect(approved.body.workspace_id).toBe(response.body.session.workspace_id);
    const { me } = await bearerOf(claimId);
    expect(me.user.email).toBe(email);
    expect(me.workspace.id).toBe(response.body.session.workspace_id);
  });

  test('an API key or an anonymous bearer cannot approve a claim (403), and the claim keeps waiting', async () => {
    const claimId = await start();
    const byKey = await approve(claimId, { key: rde.ownerKey });
    expect(byKey.status).toBe(403);
    const anonymousClaim = await start();
    await api(rde, 'POST', `/api/v2/auth/cli/claim/${anonymousClaim}`, { key: null, body: {} });
    const { token } = await bearerOf(anonymousClaim);
    expect((await approve(claimId, { key: token })).status).toBe(403);
    expect((await approve(claimId, { key: null })).status).toBe(401);
    expect((await poll(claimId)).body).toEqual({ status: 'pending' });
  });

  test('the magic-link leg approves the waiting claim for the home workspace: kind cli', async () => {
    const email = freshEmail('cli-link');
    const claimId = await start();
    const { token } = await requestSignIn(rde, email, { cli_token: claimId });
    const verified = await api(rde, 'POST', '/api/v2/auth/magic-link/verify', { key: null, body: { token } });
    expect(verified.status).toBe(200);
    expect(verified.body.kind).toBe('cli');
    const { me } = await bearerOf(claimId);
    expect(me.user.email).toBe(email);
    expect(me.role).toBe('owner');
    expect(me.workspace.id).toBe(verified.body.session.workspace_id);
  });

  test('approve with an invite code binds the claim to the invited workspace and joins it', async () => {
    const email = freshEmail('invitee');
    const invite = await api(rde, 'POST', '/api/v2/workspace/invites', { body: { email } });
    expect(invite.status).toBe(201);
    const { session } = await signIn(rde, email);
    const claimId = await start();
    const approved = await approve(claimId, withCookie(session), invite.body.invite_code);
    expect(approved.status).toBe(200);
    const ownerWorkspace = (await api(rde, 'GET', '/api/v2/me')).body.workspace.id;
    expect(approved.body.workspace_id).toBe(ownerWorkspace);
    const { me } = await bearerOf(claimId);
    expect(me.workspace.id).toBe(ownerWorkspace);
    expect(me.role).toBe('member');
  });

  test('an invite code for another email cannot bind a claim (403); an unknown one is 404', async () => {
    const invite = await api(rde, 'POST', '/api/v2/workspace/invites', { body: { email: freshEmail('someone-else') } });
    const { session } = await signIn(rde, freshEmail('not-invited'));
    const claimId = await start();
    expect((await approve(claimId, withCookie(session), invite.body.invite_code)).status).toBe(403);
    expect((await approve(claimId, withCookie(session), 'rde_inv_NoSuchInvite0000000000000000')).status).toBe(404);
    expect((await poll(claimId)).body).toEqual({ status: 'pending' });
  });
});
