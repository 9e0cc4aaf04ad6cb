import { connect } from 'node:net';
import { api, NOT_AUTHENTICATED, sandboxCounters, type ApiResponse } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';

jest.setTimeout(120_000);

/**
 * The spec's Errors and Authentication sections as a client meets them (decision 0052): a 422
 * names what is wrong and what would be accepted, a 401 says what to send and where keys come from.
 */
describe(`spec: Errors (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0' }, mode, { shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const post = (path: string, body: unknown) => api(rde, 'POST', path, { body });
  const balance = async () => (await api(rde, 'GET', '/billing/balance')).body.balance as number;
  const searches = async () => (await sandboxCounters(rde)).pplgraph?.search?.requests ?? 0;

  test('a URL over the header limit is 431 in the error body, documented for every operation, and changes nothing', async () => {
    const before = await balance();
    const response = await fetch(`${rde.baseUrl}/api/v2/workflows?name=${'x'.repeat(20_000)}`, {
      headers: { authorization: `Bearer ${rde.ownerKey}` },
    });
    expect(response.status).toBe(431);
    expect(await response.json()).toEqual({ detail: expect.stringContaining('too large') });
    const document = (await api(rde, 'GET', '/openapi.json', { key: null })).body;
    const operations = Object.values(document.paths as Record<string, Record<string, { responses: object }>>).flatMap(
      (methods) => Object.values(methods),
    );
    expect(operations.filter((operation) => !('431' in operation.responses))).toEqual([]);
    expect(await balance()).toBe(before);
  });

  test('bytes that are not HTTP get 400 in the error body before any route runs', async () => {
    const { port } = new URL(rde.baseUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      detail: 'the request is not valid HTTP',
    });
  });

  describe('422 validation-error body', () => {
    test('an unknown property is named in loc and msg, with the allowed names', async () => {
      const response = await post('/tools/pplgraph/search', { query: { titles: ['CTO'] } });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        detail: [
          {
            loc: ['body', 'query'],
            msg: "unknown property 'query'; allowed: payload, args, kwargs, dry_run, session_id",
            type: 'extra_forbidden',
          },
        ],
      });
    });

    test("a provider method's unknown filters are each named, with a did-you-mean of the vendor's name, and nothing is charged", async () => {
      const [creditsBefore, searchesBefore] = [await balance(), await searches()];
      const response = await post('/tools/pplgraph/search', {
        payload: { query: { titles: ['CTO'], locations: ['Paris'] } },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: 'invalid_payload',
        invalid: [
          { key: 'query.titles', message: "unknown property 'titles'; did you mean 'query.job_title'?" },
          { key: 'query.locations', message: "unknown property 'locations'; did you mean 'query.location'?" },
        ],
        expected: ['query', 'size', 'scroll_token'],
      });
      expect([await balance(), await searches()]).toEqual([creditsBefore, searchesBefore]);
    });

    test('a property sent one level too high is pointed to where it belongs', async () => {
      const response = await post('/tools/people_search', { query: { titles: ['CTO'] } });
      expect(response.status).toBe(422);
      expect(response.body.detail).toEqual([
        {
          loc: ['body', 'query'],
          msg: "unknown property 'query'; did you mean 'payload.query'?",
          type: 'extra_forbidden',
        },
      ]);
    });

    test('a typo gets the nearest declared name', async () => {
      const response = await post('/enrich/email_enrichment', { rows: [{ name: 'Ada' }], dry_rn: true });
      expect(response.status).toBe(422);
      expect(response.body.detail).toEqual([
        { loc: ['body', 'dry_rn'], msg: "unknown property 'dry_rn'; did you mean 'dry_run'?", type: 'extra_forbidden' },
      ]);
    });

    test('a value matching none of the alternatives is one line listing the allowed values, and no run starts', async () => {
      const creditsBefore = await balance();
      const response = await post('/enrich/run', { steps: ['email'] });
      expect(response.status).toBe(422);
      expect(response.body.detail).toEqual([
        {
          loc: ['body', 'steps', 0],
          msg:
            'must be one of: email_enrichment, personal_email, linkedin_profile, phone_enrichment; ' +
            'or an object; or a string matching ^[a-z0-9_-]{1,64}\\.[a-z0-9_]{1,64}$',
          type: 'anyOf',
        },
        { loc: ['body'], msg: "must have exactly one of: 'input', 'input_rows'", type: 'missing' },
      ]);
      expect(await balance()).toBe(creditsBefore);
    });

    test('an enum lists its allowed values', async () => {
      const response = await post('/search/people_search', { titles: ['CTO'], coverage: 'all' });
      expect(response.status).toBe(422);
      expect(response.body.detail).toEqual([
        { loc: ['body', 'coverage'], msg: 'must be one of: single, max', type: 'enum' },
      ]);
    });

    test('a nested unknown property is named at its full location', async () => {
      const response = await post('/enrich/run', {
        input_rows: [{ name: 'Ada' }],
        steps: [{ tool: 'mailfinder', method: 'find', argz: {} }],
      });
      expect(response.status).toBe(422);
      expect(response.body.detail).toEqual([
        {
          loc: ['body', 'steps', 0, 'argz'],
          msg: "unknown property 'argz'; did you mean 'steps[0].args'?",
          type: 'extra_forbidden',
        },
      ]);
    });

    test('a missing required property is named', async () => {
      const response = await post('/tools/enrich_jobs/ringdirect', { payload: {} });
      expect(response.status).toBe(422);
      expect(response.body.detail).toEqual([
        { loc: ['body', 'payload', 'job_id'], msg: "missing required property 'job_id'", type: 'missing' },
      ]);
    });

    test('no problem is reported twice', async () => {
      const response = await post('/enrich/run', { steps: ['email', 'phone'], specs: [{}] });
      expect(response.status).toBe(422);
      const detail = response.body.detail as { loc: unknown[]; msg: string }[];
      const problems = detail.map((item) => JSON.stringify(item));
      expect(new Set(problems).size).toBe(problems.length);
      expect(detail.map(({ loc }) => JSON.stringify(loc))).toEqual(
        expect.arrayContaining(['["body","steps",0]', '["body","steps",1]', '["body","specs",0,"capability"]']),
      );
    });
  });

  describe('401 not authenticated', () => {
    const me = (headers: Record<string, string>) => api(rde, 'GET', '/api/v2/me', { key: null, headers });
    const expectRefusal = (response: ApiResponse, body: object) => {
      expect(response.status).toBe(401);
      expect(response.body).toEqual(body);
    };

    test('Authentication rule 1: no Authorization header is told to send `Authorization: Bearer <key>`', async () => {
      expectRefusal(await me({}), NOT_AUTHENTICATED.missing);
    });

    test('Authentication rule 1: a header without the Bearer scheme, or an empty token, is told the header’s form', async () => {
      expectRefusal(await me({ authorization: 'Basic dXNlcjpwYXNz' }), NOT_AUTHENTICATED.not_bearer);
      expectRefusal(await me({ authorization: rde.ownerKey }), NOT_AUTHENTICATED.not_bearer);
      expectRefusal(await me({ authorization: 'Bearer ' }), NOT_AUTHENTICATED.empty_bearer);
    });

    test('Authentication rule 1: a key sent as X-Api-Key is told to use the Authorization header', async () => {
      expectRefusal(await me({ 'x-api-key': rde.ownerKey }), NOT_AUTHENTICATED.api_key_header);
    });

    test('Authentication rule 1: a revoked key answers exactly as a key never issued', async () => {
      const minted = await api(rde, 'POST', '/api/v2/keys', { body: { name: 'short-lived' } });
      expect(minted.status).toBe(201);
      const revoked = await api(rde, 'DELETE', `/api/v2/keys/${minted.body.id}`);
      expect(revoked.status).toBe(200);
      const asRevoked = () => api(rde, 'GET', '/api/v2/me', { key: minted.body.key });
      await waitUntil(async () => (await asRevoked()).status === 401, 15_000, 50);
      const neverIssued = await api(rde, 'GET', '/api/v2/me', { key: `rde_live_${'0'.repeat(43)}` });
      const afterRevocation = await asRevoked();
      expectRefusal(neverIssued, NOT_AUTHENTICATED.refused);
      expect({ status: afterRevocation.status, body: afterRevocation.body }).toEqual({
        status: neverIssued.status,
        body: neverIssued.body,
      });
    });

    test('Authentication rule 3: an ended browser session is told to sign in again', async () => {
      expectRefusal(await me({ cookie: 'rde_session=signed-out-long-ago' }), NOT_AUTHENTICATED.session_ended);
    });

    test('Authentication rule 6: the MCP endpoint keeps its RFC 6750 challenge', async () => {
      const response = await api(rde, 'POST', '/api/v2/mcp', { key: null, body: {} });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="/);
    });
  });
});
