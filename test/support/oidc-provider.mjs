// A real OpenID provider (the `oidc-provider` package) on loopback, standing in for the external
// identity provider ("Google") and for a CRM/ATS vendor's OAuth server in tests and local runs.
//
//   OIDC_PORT=18990 OIDC_CLIENTS='[{"client_id":"rde","client_secret":"s","redirect_uris":["http://…/callback"]}]' \
//     node test/support/oidc-provider.mjs
//
// It has no login page: the sign-in step signs in the account named by the authorization
// request's `login_hint` (an email; OIDC_DEFAULT_ACCOUNT otherwise) and grants what was asked,
// so a test follows redirects the way a browser whose user clicks "allow" would. Every account
// is an email with a verified `email` claim.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const port = Number(process.env.OIDC_PORT ?? 18990);
const clients = JSON.parse(process.env.OIDC_CLIENTS ?? '[]').map((client) => ({
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'client_secret_basic',
  ...client,
}));
const defaultAccount = process.env.OIDC_DEFAULT_ACCOUNT ?? 'user@example.com';

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients,
  cookies: { keys: ['local-test-provider-only'] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  scopes: ['openid', 'email', 'offline_access', 'crm.read'],
  features: { devInteractions: { enabled: false } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  findAccount: async (_ctx, sub) => ({
    accountId: sub,
    claims: async () => ({ sub, email: sub, email_verified: true }),
  }),
  // Every requested scope is granted, as if the user clicked "allow".
  loadExistingGrant: async (ctx) => {
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope(ctx.oidc.params.scope ?? 'openid');
    await grant.save();
    return grant;
  },
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
});

const handle = provider.callback();
createServer(async (req, res) => {
  if (!req.url.startsWith('/interaction/')) return handle(req, res);
  try {
    const details = await provider.interactionDetails(req, res);
    const accountId = details.params.login_hint || defaultAccount;
    await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
  } catch (error) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
  }
}).listen(port, '127.0.0.1', () => console.log(`oidc provider listening on http://127.0.0.1:${port}`));
