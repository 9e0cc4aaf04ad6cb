import { createClient, type MailMessage } from '@rde/platform';
import { signin } from '@rde/proto';
import { failure, startAuth, type AuthUnderTest } from './support';

/**
 * Sign-in rules on the embedded store and a settable clock: expiry and the guess-cap window move
 * with the clock, and the store can be read whole (the spec suites do the same on real servers).
 */
describe('sign-in (auth service, embedded adapters)', () => {
  let auth: AuthUnderTest;
  let rpc: ReturnType<typeof createClient<typeof signin.SignInServiceService>>['rpc'];
  let close: () => void;

  beforeAll(async () => {
    auth = await startAuth();
    const connection = createClient(signin.SignInServiceService, { address: auth.address, deadlineMs: 5_000 });
    rpc = connection.rpc;
    close = () => connection.close();
  });

  afterAll(async () => {
    close();
    await auth.stop();
  });

  /** The newest logged email to this address (no SMTP server here: mail is logged). */
  function mailTo(email: string): MailMessage {
    const mails = auth.logged
      .map((line) => line.fields.mail as MailMessage | undefined)
      .filter((mail) => mail?.to === email);
    return mails[mails.length - 1]!;
  }
  const secretsOf = (mail: MailMessage) => ({
    token: decodeURIComponent(/token=([^\s&]+)/.exec(mail.text)![1]),
    code: /code: (\d{6})/.exec(mail.text)![1],
  });
  const send = (email: string) => rpc.sendMagicLink({ email, cliToken: '', next: '', inviteCode: '' });
  const reasonOf = async (call: Promise<unknown>) =>
    ((await failure(call)).body as { detail: { reason: string } }).detail.reason;

  test('a link expires with the clock: 15 minutes after it was sent it is refused as expired', async () => {
    await send('clock@example.com');
    const { token } = secretsOf(mailTo('clock@example.com'));
    auth.clock.advance(15 * 60_000);
    expect(await reasonOf(rpc.verifyMagicLink({ token }))).toBe('expired');
  });

  test('the guess cap lifts when its window ends', async () => {
    const email = 'window@example.com';
    await send(email);
    const { code } = secretsOf(mailTo(email));
    const wrong = code === '000000' ? '111111' : '000000';
    for (let guess = 0; guess < 5; guess++)
      expect(await reasonOf(rpc.verifyCode({ email, code: wrong }))).toBe('wrong');
    expect(await reasonOf(rpc.verifyCode({ email, code }))).toBe('locked');
    auth.clock.advance(15 * 60_000 + 1);
    await send(email);
    const fresh = secretsOf(mailTo(email));
    expect((await rpc.verifyCode({ email, code: fresh.code })).result!.kind).toBe('session');
  });

  test('the embedded store holds no plaintext link, code, session or claim', async () => {
    const claim = await rpc.startClaim({ clientIp: '127.0.0.1' });
    await rpc.sendMagicLink({ email: 'rest@example.com', cliToken: claim.claimId, next: '', inviteCode: '' });
    const { token, code } = secretsOf(mailTo('rest@example.com'));
    const { result } = await rpc.verifyMagicLink({ token });
    const polled = await rpc.pollClaim({ claimId: claim.claimId });
    expect(polled.token).toMatch(/^rde_live_/);
    const store = await auth.backends.documentStore('rde_auth');
    const names = ['magic_links', 'sessions', 'claims', 'api_keys', 'users'];
    const dump = JSON.stringify(await Promise.all(names.map((name) => store.collection(name).find({}))));
    for (const secret of [token, result!.sessionToken, claim.claimId, polled.token]) expect(dump).not.toContain(secret);
    expect(dump).not.toContain(`"${code}"`);
  });

  test('a legacy password account that never proved its email must set a password first', async () => {
    const email = 'legacy@example.com';
    const store = await auth.backends.documentStore('rde_auth');
    await store.collection('users').insertOne({
      _id: 'usr_legacy',
      email,
      created_at_ms: auth.clock.now(),
      password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g',
      email_verified: false,
    });
    await send(email);
    const { result } = await rpc.verifyMagicLink({ token: secretsOf(mailTo(email)).token });
    expect(result).toMatchObject({ kind: 'set_password', sessionToken: '' });
    const set = await rpc.completePasswordSignup({ token: result!.setPasswordToken, password: 'a new long password' });
    expect(set.result!.kind).toBe('session');
    const login = await rpc.passwordLogin({ email, password: 'a new long password', cliToken: '' });
    expect(login.result!.userId).toBe('usr_legacy');
  });
});
