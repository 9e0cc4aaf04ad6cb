import { BODY_LIMIT_BYTES, BODY_MAX_DEPTH, PATH_PARAM_MAX_LENGTH } from '../src/contract';
import { gatewayOver, OWNER } from './support';

/**
 * The contract every route shares, over the real route modules with stand-in clients that record
 * what reaches a service: limits on requests, the 405, and the OpenAPI document itself.
 */
const dataset = {
  id: 'ds_1',
  name: 'n',
  columns: [],
  rowCount: 0,
  createdAtMs: 0,
  sessionId: '',
  createdByUserId: '',
  source: '',
  runId: '',
  enrichStatus: 'none',
};

async function gateway() {
  const reached: string[] = [];
  const record =
    <T>(name: string, answer: T) =>
    async () => {
      reached.push(name);
      return answer;
    };
  const app = await gatewayOver({
    auth: { resolveBearer: async () => ({ caller: OWNER }) },
    dataset: {
      listDatasets: record('listDatasets', { datasets: [], page: { offset: 0, limit: 10, total: 0 } }),
      getDataset: record('getDataset', { dataset }),
      createDataset: record('createDataset', { dataset, sampleJson: Buffer.from('[]') }),
    },
  });
  return { app, reached };
}

const authorization = 'Bearer good';
const json = { authorization, 'content-type': 'application/json' };

describe('request limits', () => {
  test('an offset beyond int32 is a 422 on offset and never reaches a service', async () => {
    const { app, reached } = await gateway();
    const response = await app.inject({ url: '/api/v2/datasets?offset=2147483648', headers: { authorization } });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toEqual([expect.objectContaining({ loc: ['query', 'offset'], type: 'maximum' })]);
    expect(reached).toEqual([]);
  });

  test('a JSON body nested deeper than the depth limit is a 422 naming the limit, and nothing is created', async () => {
    const { app, reached } = await gateway();
    const deep = '['.repeat(5_000) + ']'.repeat(5_000);
    const response = await app.inject({
      method: 'POST',
      url: '/api/v2/datasets',
      headers: json,
      payload: `{"rows":[{"a":${deep}}]}`,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().detail[0]).toMatchObject({
      type: 'max_depth',
      msg: `JSON nests more than ${BODY_MAX_DEPTH} levels deep`,
    });
    expect(reached).toEqual([]);
  });

  test('a body at the depth limit is accepted', async () => {
    const { app, reached } = await gateway();
    // body (1) → rows (2) → row (3) → nested arrays up to the limit
    const nested = '['.repeat(BODY_MAX_DEPTH - 3) + ']'.repeat(BODY_MAX_DEPTH - 3);
    const response = await app.inject({
      method: 'POST',
      url: '/api/v2/datasets',
      headers: json,
      payload: `{"rows":[{"a":${nested}}]}`,
    });
    expect(response.statusCode).toBe(201);
    expect(reached).toEqual(['createDataset']);
  });

  test('a body over the size limit is a 413', async () => {
    const { app, reached } = await gateway();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v2/keys',
      headers: json,
      payload: JSON.stringify({ name: 'x'.repeat(BODY_LIMIT_BYTES) }),
    });
    expect(response.statusCode).toBe(413);
    expect(typeof response.json().detail).toBe('string');
    expect(reached).toEqual([]);
  });

  test('a __proto__ key anywhere in a body is refused with a 400 that names it', async () => {
    const { app, reached } = await gateway();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v2/datasets',
      headers: json,
      payload: '{"rows":[{"a":{"__proto__":{"admin":true}}}]}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe('A "__proto__" key is not allowed (at body.rows.0.a)');
    expect(reached).toEqual([]);
  });

  test('constructor and toString keys are ordinary data', async () => {
    const { app, reached } = await gateway();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v2/datasets',
      headers: json,
      payload: '{"rows":[{"constructor":1,"toString":"x"}]}',
    });
    expect(response.statusCode).toBe(201);
    expect(reached).toEqual(['createDataset']);
  });

  test('a path parameter as long as the shared limit reaches the route; one longer is the schema’s 422, not 414', async () => {
    const { app, reached } = await gateway();
    const longest = await app.inject({
      url: `/api/v2/datasets/ds_${'a'.repeat(PATH_PARAM_MAX_LENGTH - 3)}`,
      headers: { authorization },
    });
    expect(longest.statusCode).toBe(200);
    expect(reached).toEqual(['getDataset']);
    const tooLong = await app.inject({
      url: `/api/v2/datasets/ds_${'a'.repeat(PATH_PARAM_MAX_LENGTH - 2)}`,
      headers: { authorization },
    });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().detail[0]).toMatchObject({ type: 'maxLength' });
    expect(reached).toEqual(['getDataset']);
  });

  test('a session_id that is not a ses_ id is the spec’s 400 invalid_session_id', async () => {
    const { app, reached } = await gateway();
    const response = await app.inject({ url: '/api/v2/datasets?session_id=nope', headers: { authorization } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      detail: { reason: 'invalid_session_id', message: 'session_id must be a ses_ id' },
    });
    expect(reached).toEqual([]);
  });
});

describe('methods', () => {
  test('a known path asked with an unsupported method is a 405 with Allow', async () => {
    const { app } = await gateway();
    for (const method of ['TRACE', 'PUT', 'QUERY'] as const) {
      const response = await app.inject({ method, url: '/api/v2/datasets/ds_1', headers: { authorization } });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('DELETE, GET, HEAD');
      expect(response.json().detail).toContain(method);
    }
  });

  test('an unknown path is still a 404', async () => {
    const { app } = await gateway();
    const response = await app.inject({ method: 'TRACE', url: '/nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not Found' });
  });
});

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
  requestBody?: unknown;
  parameters?: unknown[];
}

/** Public routes whose own answer is a 401 by the spec: a password mismatch, MCP without a bearer. */
const SPEC_401_ON_PUBLIC_ROUTES = /^(post \/api\/v2\/auth\/password\/login|\w+ \/api\/v2\/mcp.*)$/;

describe('the OpenAPI document', () => {
  async function operations() {
    const { app } = await gateway();
    const document = (await app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    return Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ name: `${method} ${path}`, operation })),
    );
  }

  test('every protected operation declares 401, 500, 503 and 504 with the error body', async () => {
    const protectedOnes = (await operations()).filter(({ operation }) => operation.security?.length !== 0);
    expect(protectedOnes.length).toBeGreaterThan(5);
    for (const { name, operation } of protectedOnes) {
      for (const status of ['401', '500', '503', '504']) {
        expect([name, status, operation.responses[status]?.content?.['application/json']?.schema]).toEqual([
          name,
          status,
          expect.objectContaining({ properties: expect.objectContaining({ detail: expect.anything() }) }),
        ]);
      }
    }
  });

  test('every operation with parameters or a body declares 422; with path parameters 404; with a body 400, 413, 415', async () => {
    const all = await operations();
    const withPath = all.filter(({ name }) => name.includes('{'));
    const withBody = all.filter(({ name }) => name.startsWith('post '));
    expect(withPath.length).toBeGreaterThan(0);
    expect(withBody.length).toBeGreaterThan(0);
    for (const { name, operation } of withPath)
      expect([name, Object.keys(operation.responses)]).toEqual([name, expect.arrayContaining(['404', '422'])]);
    for (const { name, operation } of withBody) {
      const validated = operation.requestBody !== undefined || (operation.parameters?.length ?? 0) > 0;
      expect([name, Object.keys(operation.responses)]).toEqual([
        name,
        expect.arrayContaining(['400', '413', '415', ...(validated ? ['422'] : [])]),
      ]);
    }
  });

  test('public operations need no bearer and declare 401 only where the spec gives them one', async () => {
    const publicOnes = (await operations()).filter(({ operation }) => operation.security?.length === 0);
    expect(publicOnes.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['get /health', 'get /ready', 'get /api/v2/billing/plans']),
    );
    const declaring401 = publicOnes.filter(({ operation }) => operation.responses['401']).map(({ name }) => name);
    expect(declaring401.filter((name) => !SPEC_401_ON_PUBLIC_ROUTES.test(name))).toEqual([]);
  });

  test('/docs renders the document for people without a bearer', async () => {
    const { app } = await gateway();
    const page = await app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger');
  });
});
