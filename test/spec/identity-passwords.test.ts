import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { linkToken, mailsTo, nthMailTo } from '../e2e/mail';
import { freshEmail, sessionCookieOf, signIn, withCookie } from '../e2e/sign-in';

jest.setTimeout(120_000);

const PASSWORD = 'correct horse battery staple';
const INVALID_LOGIN = { detail: 'Invalid email or password' };

describe(`Sign-in: passwords (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({}, mode, { shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const signup = (email: string) => api(rde, 'POST', '/api/v2/auth/password/signup', { key: null, body: { email } });
  const complete = (token: string, password: string) =>
    api(rde, 'POST', '/api/v2/auth/password/signup/complete', { key: null, body: { token, password } });
  const login = (email: string, password: string) =>
    api(rde, 'POST', '/api/v2/auth/password/login', { key: null, body: { email, password } });

  /** Signs up through the emailed link (the `nth` email to that address). */
  async function signUp(email: string, password = PASSWORD, nth = 1) {
    expect((await signup(email)).status).toBe(200);
    return complete(linkToken(await nthMailTo(email, nth)), password);
  }

  test('sign-up emails a set-password link; complete sets the password, signs in and sets the cookie', async () => {
    const email = freshEmail('signup');
    const started = await signup(email);
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ ok: true, pending: true, email });
    const done = await complete(linkToken(await nthMailTo(email)), PASSWORD);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ ok: true, kind: 'session', session: { email } });
    const me = await api(rde, 'GET', '/api/v2/me', withCookie(sessionCookieOf(done)!.value));
    expect(me.body.user.email).toBe(email);
  });

  test('the sign-up answer never reveals whether the address is registered', async () => {
    const registered = freshEmail('registered');
    await signIn(rde, registered);
    const unregistered = freshEmail('unregistered');
    const [known, unknown] = [await signup(registered), await signup(unregistered)];
    expect(known.status).toBe(unknown.status);
    expect({ ...known.body, email: '' }).toEqual({ ...unknown.body, email: '' });
    // Both receive a set-password email: for one it is a reset, for the other a sign-up.
    expect((await nthMailTo(registered, 2)).subject).toBe((await nthMailTo(unregistered)).subject);
  });

  test('login with the right password signs in and sets the session cookie', async () => {
    const email = freshEmail('login');
    await signUp(email);
    const response = await login(email, PASSWORD);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ok: true, kind: 'session', session: { email } });
    expect(sessionCookieOf(response)!.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax']));
  });

  test('login is 401 with one body for a wrong password, an unknown email and an account without a password', async () => {
    const withPassword = freshEmail('with-password');
    await signUp(withPassword);
    const withoutPassword = freshEmail('without-password');
    await signIn(rde, withoutPassword);
    const refusals = [
      await login(withPassword, 'not the password at all'),
      await login(freshEmail('nobody'), PASSWORD),
      await login(withoutPassword, PASSWORD),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(401);
      expect(refusal.body).toEqual(INVALID_LOGIN);
      expect(sessionCookieOf(refusal)).toBeUndefined();
    }
  });

  test('a reset link sets a new password: the old one stops working', async () => {
    const email = freshEmail('reset');
    await signUp(email);
    const reset = await signUp(email, 'a brand new passphrase', 2);
    expect(reset.status).toBe(200);
    expect((await login(email, PASSWORD)).status).toBe(401);
    expect((await login(email, 'a brand new passphrase')).status).toBe(200);
  });

  test('a set-password link works once: a replay is 400 used', async () => {
    const email = freshEmail('replay');
    expect((await signup(email)).status).toBe(200);
    const token = linkToken(await nthMailTo(email));
    expect((await complete(token, PASSWORD)).status).toBe(200);
    const replay = await complete(token, 'another long password');
    expect(replay.status).toBe(400);
    expect(replay.body.detail.reason).toBe('used');
  });

  test('a too-short password is 422 and does not spend the link', async () => {
    const email = freshEmail('short');
    expect((await signup(email)).status).toBe(200);
    const token = linkToken(await nthMailTo(email));
    const short = await complete(token, 'short');
    expect(short.status).toBe(422);
    expect(short.body.detail[0].loc).toEqual(['body', 'password']);
    expect((await complete(token, PASSWORD)).status).toBe(200);
  });

  test('an unknown set-password token is 400 unknown; a sign-in link is not a set-password link', async () => {
    const unknown = await complete('rde_pw_NeverIssued000000000000000000000', PASSWORD);
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail.reason).toBe('unknown');
  });

  test('sign-up answers 502 when the email cannot be delivered', async () => {
    const email = `bounce.${Date.now()}@mail.invalid`;
    const response = await signup(email);
    expect(response.status).toBe(502);
    expect(await mailsTo(email)).toEqual([]);
  });
});
