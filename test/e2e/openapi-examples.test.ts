import { api, untilSettled, type ApiResponse } from './api';
import { mode, startRde, type RunningRde } from './harness';
import { STRIPE_ENV } from './stripe';

jest.setTimeout(240_000);

/**
 * Every operation of /openapi.json tried as a newcomer would try it from /docs (decision 0053):
 * its documented example, with the dev owner key, answers below 400 and spends nothing.
 */

interface Parameter {
  name: string;
  in: 'path' | 'query';
  example?: unknown;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: Record<string, unknown> }> };
}
interface Attempt {
  name: string;
  path: string;
  query: Record<string, string>;
  body?: Record<string, unknown>;
}

/** The operations a plain dev key cannot make succeed, each with why. */
const CANNOT_SUCCEED: Record<string, string> = {
  'POST /api/v2/billing/stripe/webhook': 'only a delivery signed with the webhook secret is applied',
  'POST /api/v2/billing/subscription/change': 'needs a subscription, which only a signed payment-provider event makes',
  'POST /api/v2/billing/subscription/cancel': 'the same: needs a subscription',
  'POST /api/v2/billing/credits/checkout':
    'the same: buying credits needs a paid plan, and the dev workspace is on Free',
  'POST /api/v2/webhooks/provider/{provider}/{nonce}': 'the nonce exists only in a vendor job RDE started',
  'POST /api/v2/webhooks/inbound/{webhook_id}': 'a webhook starts a live run, which bills (decision 0075)',
  'GET /enrich/jobs/{provider}/{job_id}': 'needs a provider job still open after the poll budget of a paid run',
  'POST /tools/enrich_jobs/{provider}': 'the same: resumes a still-open provider job',
  'POST /api/v2/auth/cli/approve': "needs a signed-in browser session's bearer",
  'POST /api/v2/auth/magic-link/verify': 'needs the token of an emailed link',
  'POST /api/v2/auth/magic-link/verify-code': 'needs the code of an email',
  'POST /api/v2/auth/password/signup/complete': 'needs the token of an emailed set-password link',
  'POST /api/v2/auth/password/login': 'the dev user has no password',
  'GET /api/v2/auth/oauth/google/start': 'needs an external identity provider configured (404 otherwise)',
  'GET /api/v2/mcp': 'answers 405 to a valid bearer by design: no server-initiated streams',
  'DELETE /api/v2/mcp': 'answers 405 by design: the MCP server is stateless',
  'GET /api/v2/mcp/oauth/consent': "needs the browser session's cookie",
  'POST /api/v2/mcp/oauth/authorize': "needs the browser session's cookie",
  'POST /api/v2/mcp/oauth/token': 'needs an authorization code from the consent',
  'POST /api/v2/mcp/oauth/revoke': 'takes a form-encoded body, which the document gives no JSON example for',
  'GET /api/v2/npm/{package_name}': 'serves only the packages RDE_NPM_PACKAGES lists, none by default (404)',
  'GET /api/v2/npm/{package_name}/-/{file}': 'the same: no package is served by default',
  'POST /api/v2/workspace/skills/{skill_id}/versions/{version}/approve':
    "needs a member's pending team version; the dev workspace has only its owner",
  'POST /api/v2/workspace/skills/{skill_id}/versions/{version}/reject': 'the same: needs a pending team version',
  'DELETE /api/v2/workspaces/members/{user_id}':
    'the dev workspace has only its owner, and its last owner cannot be removed (409; decision 0087)',
};

/** Operations that end a fixture, run after every other. */
const LAST =
  /^(DELETE |POST \/session\/\{sid\}\/end|POST \/api\/v2\/auth\/logout|POST \/enrich\/runs\/\{run_id\}\/cancel)/;

describe(`the OpenAPI document's examples (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    // Payments on the stripe-mock backend; the examples' CRM with OAuth connect (the vendor is never reached).
    const vendor = 'https://crm.example.test';
    rde = await startRde({
      ...STRIPE_ENV,
      RDE_OPENAI_APPS_CHALLENGE: 'domain-proof-token',
      RDE_INTEGRATIONS: JSON.stringify({
        hubspot: {
          issuer: vendor,
          authorization_endpoint: `${vendor}/auth`,
          token_endpoint: `${vendor}/token`,
          scope: 'crm',
        },
      }),
    });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const ok = (response: ApiResponse, what: string) => {
    if (response.status >= 400) throw new Error(`${what}: ${response.status} ${response.text}`);
    return response.body;
  };

  /**
   * Resources the parameters and body keys name, made first, keyed by parameter name; and
   * a key of its own for logout, which revokes the key it is sent with.
   */
  async function fixtures() {
    const me = ok(await api(rde, 'GET', '/api/v2/me'), 'me');
    const dataset = ok(await api(rde, 'POST', '/api/v2/datasets', { body: { rows: [{ name: 'Ada' }] } }), 'dataset');
    const session = ok(
      await api(rde, 'POST', '/session/start', { body: { steps: ['search', 'enrich'], user_prompt: 'x' } }),
      'session',
    );
    const doomedKey = ok(await api(rde, 'POST', '/api/v2/keys', { body: { name: 'revoked by DELETE' } }), 'key');
    const logoutKey = ok(await api(rde, 'POST', '/api/v2/keys', { body: { name: 'logged out' } }), 'key');
    const claim = ok(await api(rde, 'POST', '/api/v2/auth/cli/start', { key: null }), 'claim');
    const client = ok(
      await api(rde, 'POST', '/api/v2/mcp/oauth/register', {
        key: null,
        body: { redirect_uris: ['http://localhost:3000/callback'] },
      }),
      'client',
    );
    const run = ok(
      await api(rde, 'POST', '/enrich/run', { body: { input: dataset.id, steps: ['email_enrichment'], detach: true } }),
      'run',
    );
    const workflow = ok(
      await api(rde, 'POST', '/api/v2/workflows/apply', {
        body: {
          name: 'examples-fixture',
          // A webhook one, so its id can be rotated.
          trigger: { type: 'webhook' },
          steps: [{ id: 'find', uses: 'search.people_search', with: { titles: ['CTO'] } }],
        },
      }),
      'workflow',
    );
    // The call example runs one that no other example disables or deletes.
    const callable = ok(
      await api(rde, 'POST', '/api/v2/workflows/apply', {
        body: {
          name: 'examples-callable',
          trigger: { type: 'manual' },
          steps: [{ id: 'find', uses: 'search.people_search', with: { titles: ['CTO'] } }],
        },
      }),
      'callable workflow',
    );
    const workflowRun = ok(
      await api(rde, 'POST', '/api/v2/workflows/call', { body: { workflow_id: workflow.id, mode: 'dry_run' } }),
      'workflow run',
    );
    const skillFiles = {
      'SKILL.md': '---\nname: outreach-tone\ndescription: The fixture the PUT example saves again.\n---\n',
    };
    const skill = ok(
      await api(rde, 'POST', '/api/v2/workspace/skills', { body: { scope: 'personal', files: skillFiles } }),
      'skill',
    );
    await untilSettled(rde, rde.ownerKey);
    const byName: Record<string, string> = {
      ds_id: dataset.id,
      sid: session.id,
      session_id: session.id,
      key_id: doomedKey.id,
      user_id: me.user.id,
      claim_id: claim.claim_id,
      client_id: client.client_id,
      run_id: run._meta.run_id,
      workflow_id: workflow.id,
      skill_id: skill.skill_id,
    };
    // A workflow route's `run_id` is a workflow run's; the call example calls its own workflow.
    const byRoute = {
      '/api/v2/workflows/call': { workflow_id: callable.id as string },
      '/api/v2/workflows/': { run_id: workflowRun.id as string },
    };
    return { byName, byRoute, logoutKey: logoutKey.key as string };
  }

  /** The request an operation's examples make, resource names filled from the fixtures. */
  function attempt(
    name: string,
    template: string,
    operation: Operation,
    byName: Record<string, string>,
    byRoute: Record<string, Record<string, string>>,
  ): Attempt {
    const routeNames = Object.entries(byRoute).find(([prefix]) => template.startsWith(prefix))?.[1] ?? {};
    const example = (parameter: Parameter) => routeNames[parameter.name] ?? byName[parameter.name] ?? parameter.example;
    const parameters = operation.parameters ?? [];
    // `{*}`: a wildcard's parameter (a skill file's relative path).
    const path = template.replace(/\{(\w+|\*)\}/g, (_, param: string) => {
      const value = example(parameters.find((p) => p.in === 'path' && p.name === param)!);
      if (value === undefined) throw new Error(`${name}: no example or fixture for {${param}}`);
      return param === '*' ? String(value) : encodeURIComponent(String(value));
    });
    const query = Object.fromEntries(
      parameters.filter((p) => p.in === 'query' && example(p) !== undefined).map((p) => [p.name, String(example(p))]),
    );
    const body = operation.requestBody?.content['application/json']?.example;
    const named =
      body &&
      Object.fromEntries(
        Object.keys(body)
          .filter((k) => k in routeNames || k in byName)
          .map((k) => [k, routeNames[k] ?? byName[k]]),
      );
    return { name, path, query, body: body && { ...body, ...named } };
  }

  test('every example answers below 400 with the dev owner key, and the ledger is unchanged', async () => {
    const document = ok(await api(rde, 'GET', '/openapi.json', { key: null }), 'openapi.json') as {
      paths: Record<string, Record<string, Operation>>;
    };
    const names = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(Object.keys(CANNOT_SUCCEED).filter((name) => !names.includes(name))).toEqual([]);

    const { byName, byRoute, logoutKey } = await fixtures();
    const ledger = async () => ok(await api(rde, 'GET', '/api/v2/billing/ledger.csv'), 'ledger') as string;
    const before = await ledger();

    const attempts = Object.entries(document.paths)
      .flatMap(([path, methods]) =>
        Object.entries(methods)
          .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, path, operation }))
          .filter(({ name }) => !(name in CANNOT_SUCCEED))
          .map(({ name, operation }) => attempt(name, path, operation, byName, byRoute)),
      )
      .sort((a, b) => Number(LAST.test(a.name)) - Number(LAST.test(b.name)));
    const failed: string[] = [];
    for (const { name, path, query, body } of attempts) {
      const search = new URLSearchParams(query);
      const response = await api(rde, name.split(' ')[0], search.size ? `${path}?${search}` : path, {
        key: name === 'POST /api/v2/auth/logout' ? logoutKey : rde.ownerKey,
        body,
        // The MCP transport asks for both (its description says so); every other route ignores it.
        headers: { accept: 'application/json, text/event-stream' },
      });
      if (response.status >= 400) failed.push(`${name} → ${response.status} ${response.text.slice(0, 300)}`);
    }
    expect(failed).toEqual([]);
    expect(attempts.length).toBeGreaterThan(75);

    await untilSettled(rde, rde.ownerKey);
    expect(await ledger()).toBe(before);
  });
});
