import type { OperationGroup } from '../operation-docs';

const EMAIL = 'ada@acme.com';

export const signIn: OperationGroup = {
  tag: 'Sign-in',
  about:
    'Sign-in for people (emailed link or code, password, an external identity provider) and the claim by ' +
    'which a CLI gets its key once a browser approves it.',
  operations: {
    'POST /api/v2/auth/cli/start': {
      summary: 'Begin a CLI claim',
      spec: 'Sign-in and claims, POST /api/v2/auth/cli/start; Authentication, rule 5',
      does: 'Answers a `claim_id` with the URL a browser approves it at and the URL the CLI polls. Public.',
    },
    'GET /api/v2/auth/cli/claim/{claim_id}': {
      summary: 'Open a claim in the browser',
      spec: 'Sign-in and claims, GET /api/v2/auth/cli/claim/{claim_id}',
      does: 'Redirects to the sign-in page carrying the claim, so signing in approves it.',
    },
    'POST /api/v2/auth/cli/claim/{claim_id}': {
      summary: 'Approve a claim anonymously (legacy)',
      spec: 'Sign-in and claims, POST /api/v2/auth/cli/claim/{claim_id}',
      does: 'The legacy approval: any identity in the body is ignored.',
      body: {},
    },
    'POST /api/v2/auth/cli/approve': {
      summary: 'Approve a claim from a signed-in browser',
      spec: 'Sign-in and claims, POST /api/v2/auth/cli/approve; Authentication, rules 3 and 5',
      does:
        "Approves a waiting claim with the browser session's identity; `invite_code` binds it to the invited " +
        'workspace. A key with no signed-in user is refused.',
    },
    'GET /api/v2/auth/cli/poll/{claim_id}': {
      summary: 'Poll a claim',
      spec: 'Sign-in and claims, GET /api/v2/auth/cli/poll/{claim_id}',
      does: 'Pending until a browser approves the claim; then answers the bearer token, once.',
    },
    'POST /api/v2/auth/logout': {
      summary: 'Log out',
      spec: 'Sign-in and claims, POST /api/v2/auth/logout; Authentication, rule 2',
      does: "Revokes the caller's own bearer token (by its hash, whatever workspace it is switched to).",
    },
    'POST /api/v2/auth/magic-link': {
      summary: 'Email a sign-in link and code',
      spec: 'Sign-in and claims, POST /api/v2/auth/magic-link; Authentication, rule 4',
      does: 'Emails a single-use link and a 6-digit code; `cli_token` ties it to a waiting claim.',
      body: { email: EMAIL },
    },
    'POST /api/v2/auth/magic-link/verify': {
      summary: 'Spend an emailed link',
      spec: 'Sign-in and claims, POST /api/v2/auth/magic-link/verify',
      does: "Spends the link's `token`: approves the waiting claim, or signs the browser in (session cookie).",
      body: { token: 'the-token-from-the-emailed-link' },
    },
    'POST /api/v2/auth/magic-link/verify-code': {
      summary: 'Spend an emailed code',
      spec: 'Sign-in and claims, POST /api/v2/auth/magic-link/verify-code',
      does: 'The same as spending the link, with the 6-digit code; the code and its link spend each other.',
      body: { email: EMAIL, code: '123456' },
    },
    'POST /api/v2/auth/password/signup': {
      summary: 'Sign up or reset a password',
      spec: 'Sign-in and claims, POST /api/v2/auth/password/signup',
      does: 'Emails a set-password link; the answer never tells whether the address is registered.',
      body: { email: EMAIL },
    },
    'POST /api/v2/auth/password/signup/complete': {
      summary: 'Set the password',
      spec: 'Sign-in and claims, POST /api/v2/auth/password/signup/complete',
      does: 'Spends the emailed set-password token, sets the password and signs in (session cookie).',
      body: { token: 'the-token-from-the-emailed-link', password: 'correct horse battery staple' },
    },
    'POST /api/v2/auth/password/login': {
      summary: 'Sign in with a password',
      spec: 'Sign-in and claims, POST /api/v2/auth/password/login; Authentication, rule 4',
      does: 'Sets the session cookie; any mismatch is the same 401, whatever did not match.',
      body: { email: EMAIL, password: 'correct horse battery staple' },
    },
    'GET /api/v2/auth/oauth/google/start': {
      summary: 'Sign in with Google',
      spec: 'Sign-in and claims, GET /api/v2/auth/oauth/google/start',
      does: 'Redirects to the identity provider with a single-use state; 404 when none is configured.',
    },
    'GET /api/v2/auth/oauth/google/callback': {
      summary: 'Identity provider callback',
      spec: 'Sign-in and claims, GET /api/v2/auth/oauth/google/callback',
      does:
        'Where the identity provider sends the browser back: signs in and redirects; any failure redirects to ' +
        'the sign-in page with `error=connect`.',
    },
  },
};

export const integrations: OperationGroup = {
  tag: 'Integrations',
  about: "Connecting a workspace's CRM or ATS by OAuth; tokens are stored encrypted.",
  operations: {
    'GET /api/v2/integrations': {
      summary: 'List the providers and their connections',
      spec: 'Integrations (listing is an addition to the spec, decision 0084)',
      does:
        'Every provider with OAuth config, by name: the app a connect would use (`workspace`, `managed` or ' +
        '`none`) and whether the workspace is connected, since when.',
    },
    'PUT /api/v2/integrations/{provider}/oauth/credentials': {
      summary: "Save the workspace's own OAuth app",
      spec: 'Integrations, PUT /api/v2/integrations/{provider}/oauth/credentials',
      does: "Stores the workspace's client id and secret for the provider, replacing any prior connection.",
      params: { provider: 'hubspot' },
      body: { client_id: 'my-hubspot-app', client_secret: 'my-hubspot-secret' },
    },
    'GET /api/v2/integrations/{provider}/oauth/start': {
      summary: 'Begin connecting a provider',
      spec: 'Integrations, GET /api/v2/integrations/{provider}/oauth/start; Authentication, rule 9',
      does: "Answers the vendor's consent URL, with a single-use state mirrored in a cookie for the callback.",
      params: { provider: 'hubspot' },
    },
    'GET /api/v2/integrations/{provider}/oauth/callback': {
      summary: 'Provider OAuth callback',
      spec: 'Integrations, GET /api/v2/integrations/{provider}/oauth/callback',
      does: 'Where the vendor sends the browser back: stores the tokens and redirects to the dashboard.',
      params: { provider: 'hubspot' },
    },
    'DELETE /api/v2/integrations/{provider}/connection': {
      summary: 'Disconnect a provider',
      spec: 'Integrations (disconnecting is an addition to the spec, decision 0084)',
      does:
        "Drops the workspace's stored tokens for the provider; its own OAuth app stays saved. Idempotent: " +
        '`was_connected` says whether there was a connection. 404 for a provider without OAuth config.',
      params: { provider: 'hubspot' },
    },
  },
};

export const webhooks: OperationGroup = {
  tag: 'Webhooks',
  about: 'Inbound workflow webhooks and calls from vendors: the URL carries the secret that authenticates them.',
  operations: {
    'POST /api/v2/webhooks/inbound/{webhook_id}': {
      summary: 'Fire a workflow by webhook',
      spec: 'Webhook triggers; Authentication 7; Events 1',
      does: 'Queues a live run of the workflow’s latest version with the JSON object body (64 KiB at most) as its input: 202 `{run_id, workflow_id, status}`. 404 unknown, rotated or deleted; 409 disabled; 422 not an object or not the input schema; 413 too large; 429 past 60 calls a minute per URL.',
      body: { city: 'Berlin' },
    },
    'POST /api/v2/webhooks/provider/{provider}/{nonce}': {
      summary: 'Vendor job callback',
      spec: 'Webhook triggers, POST /api/v2/webhooks/provider/{provider}/{nonce}; Authentication, rule 7',
      does: "A vendor reports a managed async job's result; the per-job nonce in the URL authenticates it.",
    },
  },
};
