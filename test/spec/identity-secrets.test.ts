import { MongoConnection } from '@rde/platform';
import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { nthMailTo, signInSecrets } from '../e2e/mail';
import { freshEmail, sessionCookieOf } from '../e2e/sign-in';

jest.setTimeout(120_000);

/** The auth service's collections that hold anything derived from a secret. */
const COLLECTIONS = ['magic_links', 'sessions', 'claims', 'invites', 'api_keys', 'users'];

/** The store is readable from the test only in distributed mode (a real MongoDB-wire server). */
const withStore = mode === 'distributed' ? describe : describe.skip;

withStore(`Sign-in secrets at rest (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({}, mode, { shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test('links, codes, sessions, claims, invite codes and minted bearers are stored only as hashes', async () => {
    const email = freshEmail('secrets');
    const claim = await api(rde, 'POST', '/api/v2/auth/cli/start', { key: null });
    const claimId = claim.body.claim_id as string;
    const invite = await api(rde, 'POST', '/api/v2/workspace/invites', { body: { email } });
    await api(rde, 'POST', '/api/v2/auth/magic-link', { key: null, body: { email, cli_token: claimId } });
    const { token, code } = signInSecrets(await nthMailTo(email, 2));
    const verified = await api(rde, 'POST', '/api/v2/auth/magic-link/verify', { key: null, body: { token } });
    const session = sessionCookieOf(verified)!.value;
    const bearer = (await api(rde, 'GET', `/api/v2/auth/cli/poll/${claimId}`, { key: null })).body.token as string;
    const plaintexts = { token, code, session, claimId, inviteCode: invite.body.invite_code as string, bearer };
    for (const secret of Object.values(plaintexts)) expect(secret).toEqual(expect.any(String));

    const connection = await MongoConnection.connect(process.env.RDE_MONGO_URL!);
    try {
      const store = connection.store(`${rde.namespace}rde_auth`);
      const stored = await Promise.all(COLLECTIONS.map((name) => store.collection(name).find({})));
      expect(stored.flat().length).toBeGreaterThan(COLLECTIONS.length);
      const dump = JSON.stringify(stored);
      for (const [what, secret] of Object.entries(plaintexts)) {
        // A 6-digit code could appear inside any hex digest by chance; look for it as a whole value.
        const found = what === 'code' ? dump.includes(`"${secret}"`) : dump.includes(secret);
        expect({ what, found }).toEqual({ what, found: false });
      }
    } finally {
      await connection.close();
    }
  });
});
