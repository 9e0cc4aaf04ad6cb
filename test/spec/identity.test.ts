import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { mailsTo, nthMailTo, signInSecrets } from '../e2e/mail';
import { freshEmail, requestSignIn, sessionCookieOf, signIn, withCookie } from '../e2e/sign-in';

jest.setTimeout(120_000);

const reason = (body: { detail: { reason: string } }) => body.detail.reason;

describe(`Sign-in: magic link, code and browser sessions (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    // No external identity provider here, whatever the environment configures.
    rde = await startRde({ RDE_GOOGLE_CLIENT_ID: '' });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const verify = (token: unknown) => api(rde, 'POST', '/api/v2/auth/magic-link/verify', { key: null, body: { token } });
  const verifyCode = (email: string, code: string) =>
    api(rde, 'POST', '/api/v2/auth/magic-link/verify-code', { key: null, body: { email, code } });

  test('the emailed link signs in once: kind session and an HttpOnly, SameSite=Lax session cookie', async () => {
    const email = freshEmail('link');
    const sent = await api(rde, 'POST', '/api/v2/auth/magic-link', { key: null, body: { email } });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ ok: true, email });
    const { token } = signInSecrets(await nthMailTo(email));

    const response = await verify(token);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ok: true, kind: 'session', session: { email } });
    const cookie = sessionCookieOf(response)!;
    expect(cookie.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
    expect(cookie.attributes).not.toContain('secure');
  });

  test('the session cookie is a bearer identity for dashboard calls, in the home workspace of a new user', async () => {
    const email = freshEmail('dashboard');
    const { session, response } = await signIn(rde, email);
    const me = await api(rde, 'GET', '/api/v2/me', withCookie(session));
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(email);
    expect(me.body.role).toBe('owner');
    expect(me.body.workspace.id).toBe(response.body.session.workspace_id);
    expect((await api(rde, 'GET', '/api/v2/keys', withCookie(session))).status).toBe(200);
  });

  test('the session cookie is Secure when the request came over TLS', async () => {
    const { token } = await requestSignIn(rde, freshEmail('tls'));
    const response = await api(rde, 'POST', '/api/v2/auth/magic-link/verify', {
      key: null,
      body: { token },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(sessionCookieOf(response)!.attributes).toContain('secure');
  });

  test('a replayed link is refused with reason used', async () => {
    const { token } = await requestSignIn(rde, freshEmail('replay'));
    expect((await verify(token)).status).toBe(200);
    const replay = await verify(token);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ detail: { reason: 'used', message: expect.any(String) } });
    expect(sessionCookieOf(replay)).toBeUndefined();
  });

  test('an unknown link is refused with reason unknown, a missing token with reason missing', async () => {
    const unknown = await verify('rde_ml_NotATokenThatWasEverIssued0000000000');
    expect(unknown.status).toBe(400);
    expect(reason(unknown.body)).toBe('unknown');
    const missing = await api(rde, 'POST', '/api/v2/auth/magic-link/verify', { key: null, body: {} });
    expect(missing.status).toBe(400);
    expect(reason(missing.body)).toBe('missing');
  });

  test('the 6-digit code signs in like the link, and then the link is used', async () => {
    const email = freshEmail('code');
    const { token, code } = await requestSignIn(rde, email);
    const byCode = await verifyCode(email, code);
    expect(byCode.status).toBe(200);
    expect(byCode.body).toMatchObject({ ok: true, kind: 'session', session: { email } });
    expect(sessionCookieOf(byCode)).toBeDefined();
    expect(reason((await verify(token)).body)).toBe('used');
  });

  test('the link spends the code of its row: the code is then used', async () => {
    const email = freshEmail('link-first');
    const { token, code } = await requestSignIn(rde, email);
    expect((await verify(token)).status).toBe(200);
    const byCode = await verifyCode(email, code);
    expect(byCode.status).toBe(400);
    expect(reason(byCode.body)).toBe('used');
  });

  test('verify-code reasons: wrong code, invalid code, unknown email', async () => {
    const email = freshEmail('reasons');
    const { code } = await requestSignIn(rde, email);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await verifyCode(email, wrongCode);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ detail: { reason: 'wrong', message: expect.any(String) } });
    expect(reason((await verifyCode(email, '12ab56')).body)).toBe('invalid');
    expect(reason((await verifyCode(freshEmail('nobody'), '123456')).body)).toBe('unknown');
    expect((await verifyCode(email, code)).status).toBe(200);
  });

  test('the guess cap locks an email after 5 wrong codes, even for the right code', async () => {
    const email = freshEmail('locked');
    const { token, code } = await requestSignIn(rde, email);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let guess = 0; guess < 5; guess++) expect(reason((await verifyCode(email, wrongCode)).body)).toBe('wrong');
    const locked = await verifyCode(email, code);
    expect(locked.status).toBe(400);
    expect(reason(locked.body)).toBe('locked');
    // The link was not spent by the refused code: it still signs in.
    expect((await verify(token)).status).toBe(200);
  });

  test('next is kept only when it is a same-origin path', async () => {
    const kept = await requestSignIn(rde, freshEmail('next'), { next: '/datasets?view=1' });
    expect((await verify(kept.token)).body.next_url).toBe('/datasets?view=1');
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const dropped = await requestSignIn(rde, freshEmail('next-dropped'), { next });
      const response = await verify(dropped.token);
      expect(response.status).toBe(200);
      expect(response.body.next_url).toBeUndefined();
    }
  });

  test('mail delivery failure answers 502 and stores nothing: the code is unknown afterwards', async () => {
    const email = `bounce.${Date.now()}@mail.invalid`;
    const sent = await api(rde, 'POST', '/api/v2/auth/magic-link', { key: null, body: { email } });
    expect(sent.status).toBe(502);
    expect(sent.body).toEqual({ detail: expect.any(String) });
    expect(reason((await verifyCode(email, '123456')).body)).toBe('unknown');
  });

  test('one address gets at most 5 sign-in emails per 15 minutes: the 6th request is 429 and sends nothing', async () => {
    const email = freshEmail('flooded');
    for (let sent = 1; sent <= 5; sent++) {
      expect((await api(rde, 'POST', '/api/v2/auth/magic-link', { key: null, body: { email } })).status).toBe(200);
    }
    const flooded = await api(rde, 'POST', '/api/v2/auth/magic-link', { key: null, body: { email } });
    expect(flooded.status).toBe(429);
    expect(flooded.body).toEqual({ detail: expect.any(String) });
    await nthMailTo(email, 5);
    expect(await mailsTo(email)).toHaveLength(5);
  });

  test('a malformed magic-link request is 422 and sends nothing', async () => {
    const response = await api(rde, 'POST', '/api/v2/auth/magic-link', { key: null, body: { email: 'not-an-email' } });
    expect(response.status).toBe(422);
    expect(response.body.detail[0].loc).toEqual(['body', 'email']);
    expect(await mailsTo('not-an-email')).toEqual([]);
  });

  test('logout revokes the session cookie it was called with', async () => {
    const { session } = await signIn(rde, freshEmail('logout'));
    const out = await api(rde, 'POST', '/api/v2/auth/logout', withCookie(session));
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ ok: true });
    expect(out.headers.getSetCookie().some((c) => c.startsWith('rde_session=;'))).toBe(true);
    const after = await api(rde, 'GET', '/api/v2/keys', withCookie(session));
    expect(after.status).toBe(401);
  });

  test('logout revokes an API key bearer by its hash, whatever X-Workspace-Id names', async () => {
    const { session, response } = await signIn(rde, freshEmail('logout-key'));
    const minted = await api(rde, 'POST', '/api/v2/keys', { ...withCookie(session), body: { name: 'laptop' } });
    expect(minted.status).toBe(201);
    const workspaceId = response.body.session.workspace_id as string;
    const out = await api(rde, 'POST', '/api/v2/auth/logout', {
      key: minted.body.key,
      headers: { 'x-workspace-id': workspaceId },
    });
    expect(out.status).toBe(200);
    expect((await api(rde, 'GET', '/api/v2/keys', { key: minted.body.key })).status).toBe(401);
    // The browser session that minted the key is a different bearer and stays signed in.
    expect((await api(rde, 'GET', '/api/v2/keys', withCookie(session))).status).toBe(200);
  });

  test('Google start is 404 when no identity provider is configured', async () => {
    const response = await api(rde, 'GET', '/api/v2/auth/oauth/google/start', { key: null });
    expect(response.status).toBe(404);
  });

  test('logout without a bearer is 401', async () => {
    const response = await api(rde, 'POST', '/api/v2/auth/logout', { key: null });
    expect(response.status).toBe(401);
  });
});

describe(`Sign-in: expiry, limits and a refusing support inbox (${mode})`, () => {
  let rde: RunningRde;
  const TTL_MS = 1_500;
  const START_LIMIT = 5;

  beforeAll(async () => {
    rde = await startRde({
      RDE_MAGIC_LINK_TTL_MS: String(TTL_MS),
      RDE_CLI_CLAIM_TTL_MS: String(TTL_MS),
      RDE_CLI_START_PER_IP_PER_MINUTE: String(START_LIMIT),
      RDE_SUPPORT_INBOX: 'support@inbox.invalid',
    });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const pastExpiry = () => new Promise((resolve) => setTimeout(resolve, TTL_MS + 200));

  test('an expired link and an expired code are refused with reason expired', async () => {
    const email = freshEmail('expiry');
    const { token, code } = await requestSignIn(rde, email);
    await pastExpiry();
    const link = await api(rde, 'POST', '/api/v2/auth/magic-link/verify', { key: null, body: { token } });
    expect(link.status).toBe(400);
    expect(reason(link.body)).toBe('expired');
    const byCode = await api(rde, 'POST', '/api/v2/auth/magic-link/verify-code', { key: null, body: { email, code } });
    expect(reason(byCode.body)).toBe('expired');
  });

  test('an unapproved CLI claim expires: the poll says expired and approval is refused', async () => {
    const started = await api(rde, 'POST', '/api/v2/auth/cli/start', { key: null });
    const claimId = started.body.claim_id as string;
    await pastExpiry();
    const poll = await api(rde, 'GET', `/api/v2/auth/cli/poll/${claimId}`, { key: null });
    expect(poll.body).toEqual({ status: 'expired' });
    const approve = await api(rde, 'POST', `/api/v2/auth/cli/claim/${claimId}`, { key: null, body: {} });
    expect(approve.status).toBe(409);
  });

  test('CLI start is limited per address when configured: past the limit it is 429', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= START_LIMIT; attempt++) {
      statuses.push((await api(rde, 'POST', '/api/v2/auth/cli/start', { key: null })).status);
    }
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(START_LIMIT);
    expect(statuses[statuses.length - 1]).toBe(429);
  });

  test('support answers 502 when the support inbox refuses the email, and stores nothing', async () => {
    const report = 'Exports fail\nthe CSV export stops at row 10';
    const sent = await api(rde, 'POST', '/api/v2/support', { body: { message: report, category: 'technical' } });
    expect(sent.status).toBe(502);
    const feedback = await api(rde, 'GET', '/api/v2/feedback');
    expect(feedback.body.feedback).toEqual([]);
  });
});
