import { api } from './api';
import { mode, startRde, type RunningRde } from './harness';

jest.setTimeout(120_000);

const NOT_FOUND = { detail: 'Dataset not found' };

describe(`datasets (${mode})`, () => {
  let rde: RunningRde;
  /** The key of a second workspace's owner. */
  let otherKey: string;

  beforeAll(async () => {
    rde = await startRde({}, mode, { shared: true });
    const other = JSON.parse(await rde.admin(['create-workspace', '--email', `other.${Date.now()}@example.com`]));
    otherKey = other.key;
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const create = (body: unknown, key?: string) => api(rde, 'POST', '/api/v2/datasets', { body, key });

  async function createdId(rows: object[], extra: object = {}): Promise<string> {
    const response = await create({ rows, ...extra });
    expect(response.status).toBe(201);
    return response.body.id;
  }

  test('POST creates a dataset from inline rows and answers its metadata with a five-row sample', async () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({ name: `p${i}`, ...(i === 3 && { email: 'x@y.io' }) }));
    const response = await create({ name: 'Leads', rows, session_id: 'ses_e2e' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^ds_/),
      name: 'Leads',
      columns: ['name', 'email'],
      row_count: 8,
      created_at: expect.any(String),
      session_id: 'ses_e2e',
      created_by: expect.any(String),
      source: null,
      run_id: null,
      enrich_status: 'none',
      sample: rows.slice(0, 5),
    });
    expect(Date.now() - Date.parse(response.body.created_at)).toBeLessThan(60_000);

    const fetched = await api(rde, 'GET', `/api/v2/datasets/${response.body.id}`);
    expect(fetched.status).toBe(200);
    const { sample: _sample, ...metadata } = response.body;
    expect(fetched.body).toEqual(metadata);
  });

  test('GET /api/v2/datasets lists the workspace’s datasets newest first, 10 by default, filtered by session', async () => {
    const session = `ses_list${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 11; i += 1) ids.push(await createdId([{ i }], { session_id: session }));
    const listed = await api(rde, 'GET', `/api/v2/datasets?session_id=${session}`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ offset: 0, limit: 10, total: 11 });
    expect(listed.body.datasets.map((d: { id: string }) => d.id)).toEqual(ids.slice(1).reverse());
    const rest = await api(rde, 'GET', `/api/v2/datasets?session_id=${session}&offset=10&limit=5`);
    expect(rest.body).toMatchObject({ offset: 10, limit: 5, total: 11, datasets: [{ id: ids[0] }] });
    const all = await api(rde, 'GET', '/api/v2/datasets');
    expect(all.body.total).toBeGreaterThanOrEqual(11);
  });

  test('GET rows pages the rows in order, 50 by default', async () => {
    const rows = Array.from({ length: 75 }, (_, n) => ({ n, nested: { even: n % 2 === 0 } }));
    const id = await createdId(rows);
    const first = await api(rde, 'GET', `/api/v2/datasets/${id}/rows`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ rows: rows.slice(0, 50), offset: 0, limit: 50, total: 75 });
    const second = await api(rde, 'GET', `/api/v2/datasets/${id}/rows?offset=50&limit=100`);
    expect(second.body).toEqual({ rows: rows.slice(50), offset: 50, limit: 100, total: 75 });
  });

  test('GET csv downloads the dataset as a CSV attachment', async () => {
    const id = await createdId([
      { name: 'Ann, Jr.', note: 'said "hi"\nthen left' },
      { name: 'Bo', tags: ['a', 'b'] },
    ]);
    const response = await api(rde, 'GET', `/api/v2/datasets/${id}/csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${id}.csv"`);
    expect(response.text).toBe('name,note,tags\n"Ann, Jr.","said ""hi""\nthen left",\nBo,,"[""a"",""b""]"\n');
  });

  test('POST at the limits, 10,000 rows in almost 3 MiB, is stored whole and exports whole', async () => {
    const rows = Array.from({ length: 10_000 }, (_, n) => ({ n, bio: `${n} `.padEnd(290, 'x') }));
    const body = { rows };
    expect(JSON.stringify(body).length).toBeGreaterThan(2.8 * 1024 * 1024);
    const response = await create(body);
    expect(response.status).toBe(201);
    expect(response.body.row_count).toBe(10_000);
    const csv = await api(rde, 'GET', `/api/v2/datasets/${response.body.id}/csv`);
    const lines = csv.text.trimEnd().split('\n');
    expect(lines).toHaveLength(10_001);
    expect(lines[10_000]).toBe(`9999,${rows[9_999].bio}`);
  });

  test('DELETE removes the dataset: it answers {ok, deleted}, then every route is 404', async () => {
    const id = await createdId([{ a: 1 }]);
    const deleted = await api(rde, 'DELETE', `/api/v2/datasets/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true, deleted: id });
    for (const path of [`/api/v2/datasets/${id}`, `/api/v2/datasets/${id}/rows`, `/api/v2/datasets/${id}/csv`]) {
      const response = await api(rde, 'GET', path);
      expect([path, response.status, response.body]).toEqual([path, 404, NOT_FOUND]);
    }
    expect((await api(rde, 'DELETE', `/api/v2/datasets/${id}`)).status).toBe(404);
  });

  test('an unknown dataset is 404 on every route', async () => {
    for (const [method, path] of [
      ['GET', '/api/v2/datasets/ds_unknown'],
      ['GET', '/api/v2/datasets/ds_unknown/rows'],
      ['GET', '/api/v2/datasets/ds_unknown/csv'],
      ['DELETE', '/api/v2/datasets/ds_unknown'],
    ]) {
      const response = await api(rde, method, path);
      expect([method, path, response.status, response.body]).toEqual([method, path, 404, NOT_FOUND]);
    }
  });

  test('another workspace’s dataset is 404 exactly like an unknown one, stays out of its list and survives its DELETE', async () => {
    const id = await createdId([{ secret: 'yes' }]);
    for (const [method, path] of [
      ['GET', `/api/v2/datasets/${id}`],
      ['GET', `/api/v2/datasets/${id}/rows`],
      ['GET', `/api/v2/datasets/${id}/csv`],
      ['DELETE', `/api/v2/datasets/${id}`],
    ]) {
      const response = await api(rde, method, path, { key: otherKey });
      expect([method, path, response.status, response.body]).toEqual([method, path, 404, NOT_FOUND]);
    }
    const theirs = await api(rde, 'GET', '/api/v2/datasets', { key: otherKey });
    expect(theirs.body.datasets.map((d: { id: string }) => d.id)).not.toContain(id);
    expect((await api(rde, 'GET', `/api/v2/datasets/${id}`)).status).toBe(200);
  });

  describe('bad requests change nothing', () => {
    let before: number;
    beforeEach(async () => {
      before = (await api(rde, 'GET', '/api/v2/datasets')).body.total;
    });
    afterEach(async () => {
      expect((await api(rde, 'GET', '/api/v2/datasets')).body.total).toBe(before);
    });

    test.each([
      ['no rows', { name: 'x' }, [{ loc: ['body', 'rows'], type: 'missing' }]],
      ['an empty rows list', { rows: [] }, [{ loc: ['body', 'rows'], type: 'minItems' }]],
      [
        'rows that are not objects',
        { rows: [{ a: 1 }, 'x', 3] },
        [
          { loc: ['body', 'rows', 1], type: 'object_type' },
          { loc: ['body', 'rows', 2], type: 'object_type' },
        ],
      ],
      [
        'more than 10,000 rows',
        { rows: Array.from({ length: 10_001 }, () => ({})) },
        [{ loc: ['body', 'rows'], type: 'maxItems' }],
      ],
      [
        'a name over 200 characters',
        { rows: [{}], name: 'n'.repeat(201) },
        [{ loc: ['body', 'name'], type: 'maxLength' }],
      ],
      ['an unknown key', { rows: [{}], row: [] }, [{ loc: ['body', 'row'], type: 'extra_forbidden' }]],
    ])('POST with %s is 422 naming the field', async (_case, body, detail) => {
      const response = await create(body);
      expect(response.status).toBe(422);
      expect(response.body.detail).toEqual(detail.map((issue) => expect.objectContaining(issue)));
    });

    test('POST with a session id that is not a ses_ id is 400', async () => {
      const response = await create({ rows: [{ a: 1 }], session_id: 'abc' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        detail: { reason: 'invalid_session_id', message: 'session_id must be a ses_ id' },
      });
    });

    test('POST with a body over 3 MiB is 413', async () => {
      const response = await create({ rows: [{ blob: 'x'.repeat(3 * 1024 * 1024) }] });
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ detail: expect.any(String) });
    });

    test('POST without a bearer is 401', async () => {
      expect((await create({ rows: [{}] }, null as unknown as string)).status).toBe(401);
    });
  });

  test.each([
    ['/api/v2/datasets?limit=0', ['query', 'limit'], 'minimum'],
    ['/api/v2/datasets?limit=101', ['query', 'limit'], 'maximum'],
    ['/api/v2/datasets?offset=-1', ['query', 'offset'], 'minimum'],
    ['/api/v2/datasets?limit=ten', ['query', 'limit'], 'integer_type'],
    ['/api/v2/datasets/ds_x/rows?limit=1001', ['query', 'limit'], 'maximum'],
    ['/api/v2/datasets/ds_x/rows?offset=-5', ['query', 'offset'], 'minimum'],
  ])('GET %s is 422', async (path, loc, type) => {
    const response = await api(rde, 'GET', path);
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual([expect.objectContaining({ loc, type })]);
  });

  test('GET list with a session id that is not a ses_ id is 400', async () => {
    const response = await api(rde, 'GET', '/api/v2/datasets?session_id=abc');
    expect(response.status).toBe(400);
  });

  test('the routes are in the OpenAPI document', async () => {
    const document = (await api(rde, 'GET', '/openapi.json')).body;
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/v2/datasets',
        '/api/v2/datasets/{ds_id}',
        '/api/v2/datasets/{ds_id}/rows',
        '/api/v2/datasets/{ds_id}/csv',
      ]),
    );
    expect(Object.keys(document.paths['/api/v2/datasets/{ds_id}/csv'].get.responses['200'].content)).toEqual([
      'text/csv',
    ]);
  });
});
