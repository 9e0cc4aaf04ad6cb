import { callerIn, creation, flakyRows, parseJson, startDatasetService, rowsJson } from './service';

const alice = callerIn('ws_alice', { sessionId: 'ses_header' });

describe('CreateDataset', () => {
  let service: Awaited<ReturnType<typeof startDatasetService>>;
  beforeEach(async () => {
    service = await startDatasetService();
  });
  afterEach(() => service.stop());

  test('stores the rows and answers the metadata, the columns in first-seen order and a five-row sample', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => (i === 2 ? { b: i, c: 'x', a: 1 } : { a: i, b: i }));
    const created = await service.client.createDataset(creation(rows, { name: '  Leads  ' }), { caller: alice });
    expect(created.dataset).toMatchObject({
      workspaceId: 'ws_alice',
      name: 'Leads',
      columns: ['a', 'b', 'c'],
      rowCount: 7,
      sessionId: 'ses_header',
      createdByUserId: 'usr_ws_alice',
      createdAtMs: service.clock.now(),
      source: '',
      enrichStatus: 'none',
    });
    expect(created.dataset!.id).toMatch(/^ds_[0-9a-f]{24}$/);
    expect(parseJson(created.sampleJson)).toEqual(rows.slice(0, 5));
    const page = await service.client.getRows({ datasetId: created.dataset!.id }, { caller: alice });
    expect(parseJson(page.rowsJson)).toEqual(rows);
  });

  test('an unnamed dataset is named by its id; a session in the request wins over the caller’s', async () => {
    const created = await service.client.createDataset(creation([{ a: 1 }], { sessionId: 'ses_body' }), {
      caller: alice,
    });
    expect(created.dataset!.name).toBe(created.dataset!.id);
    expect(created.dataset!.sessionId).toBe('ses_body');
  });

  test('a given id makes the create idempotent: a replay answers the stored dataset and writes nothing', async () => {
    const first = await service.client.createDataset(
      creation([{ a: 1 }, { a: 2 }], { datasetId: 'ds_run_7', source: 'tool:people_db_a.search', runId: 'run_7' }),
      { caller: alice },
    );
    service.clock.advance(60_000);
    const replay = await service.client.createDataset(creation([{ z: 9 }], { datasetId: 'ds_run_7', name: 'other' }), {
      caller: alice,
    });
    expect(replay.dataset).toEqual(first.dataset);
    expect(first.dataset).toMatchObject({ id: 'ds_run_7', source: 'tool:people_db_a.search', runId: 'run_7' });
    expect(parseJson(replay.sampleJson)).toEqual([{ a: 1 }, { a: 2 }]);
    expect(await service.storedRows()).toBe(2);
    const list = await service.client.listDatasets({ sessionId: '' }, { caller: alice });
    expect(list.page!.total).toBe(1);
  });

  test('another workspace cannot take an id that is in use', async () => {
    await service.client.createDataset(creation([{ a: 1 }], { datasetId: 'ds_taken' }), { caller: alice });
    const failure = await service.client
      .createDataset(creation([{ b: 2 }], { datasetId: 'ds_taken' }), { caller: callerIn('ws_bob') })
      .catch((error) => error);
    expect(failure).toMatchObject({ httpStatus: 409, body: { detail: 'dataset_id is already in use' } });
    const kept = await service.client.getRows({ datasetId: 'ds_taken' }, { caller: alice });
    expect(parseJson(kept.rowsJson)).toEqual([{ a: 1 }]);
  });

  test.each([
    [
      'that are not JSON',
      Buffer.from('[{"a":'),
      [{ loc: ['body', 'rows'], msg: 'must be valid JSON', type: 'json_invalid' }],
    ],
    ['missing', Buffer.alloc(0), [{ loc: ['body', 'rows'], msg: 'field required', type: 'missing' }]],
    [
      'that are not an array',
      rowsJson({ a: 1 }),
      [{ loc: ['body', 'rows'], msg: 'must be array', type: 'array_type' }],
    ],
    [
      'holding non-objects',
      rowsJson([{ a: 1 }, 'x', { b: 2 }, [1], null]),
      [1, 3, 4].map((index) => ({ loc: ['body', 'rows', index], msg: 'must be object', type: 'object_type' })),
    ],
  ])('rows %s are a 422 naming where, and nothing is stored', async (_case, bytes, detail) => {
    const failure = await service.client
      .createDataset({ ...creation([]), rowsJson: bytes }, { caller: alice })
      .catch((error) => error);
    expect(failure).toMatchObject({ httpStatus: 422, body: { detail } });
    expect(await service.storedRows()).toBe(0);
    expect((await service.client.listDatasets({ sessionId: '' }, { caller: alice })).page!.total).toBe(0);
  });

  test.each([
    [
      'a dataset id that is not a ds_ id',
      { datasetId: 'run_1' },
      400,
      { detail: { reason: 'invalid_dataset_id', message: 'dataset_id must be a ds_ id' } },
    ],
    [
      'a session id that is not a ses_ id',
      { sessionId: 'abc' },
      400,
      { detail: { reason: 'invalid_session_id', message: 'session_id must be a ses_ id' } },
    ],
    [
      'a name over 200 characters',
      { name: 'n'.repeat(201) },
      422,
      { detail: [{ loc: ['body', 'name'], msg: 'must NOT have more than 200 characters', type: 'maxLength' }] },
    ],
  ])('%s is refused and nothing is stored', async (_case, fields, httpStatus, body) => {
    const failure = await service.client.createDataset(creation([{ a: 1 }], fields), { caller: alice }).catch((e) => e);
    expect(failure).toMatchObject({ httpStatus, body });
    expect(await service.storedRows()).toBe(0);
  });

  test('a call that acts for no workspace is refused', async () => {
    const failure = await service.client.createDataset(creation([{ a: 1 }])).catch((error) => error);
    expect(failure).toMatchObject({ httpStatus: 401 });
  });
});

describe('CreateDataset cut short', () => {
  test('a half-written dataset is never shown, and retrying the same id converges on one copy of each row', async () => {
    const flaky = flakyRows(1);
    const service = await startDatasetService({ wrapStore: flaky.wrapStore, env: { RDE_DATASET_WRITE_BATCH: '10' } });
    try {
      const rows = Array.from({ length: 40 }, (_, i) => ({ n: i }));
      const request = creation(rows, { datasetId: 'ds_run_crash' });
      const failure = await service.client.createDataset(request, { caller: alice }).catch((error) => error);
      expect(failure).toMatchObject({ httpStatus: 500 });
      expect(await service.storedRows()).toBe(10);
      const hidden = await service.client.getDataset({ datasetId: 'ds_run_crash' }, { caller: alice }).catch((e) => e);
      expect(hidden).toMatchObject({ httpStatus: 404 });
      expect((await service.client.listDatasets({ sessionId: '' }, { caller: alice })).page!.total).toBe(0);

      flaky.heal();
      const retried = await service.client.createDataset(request, { caller: alice });
      expect(retried.dataset).toMatchObject({ id: 'ds_run_crash', rowCount: 40 });
      expect(await service.storedRows()).toBe(40);
      const page = await service.client.getRows(
        { datasetId: 'ds_run_crash', page: { offset: 0, limit: 100 } },
        { caller: alice },
      );
      expect(parseJson(page.rowsJson)).toEqual(rows);
    } finally {
      await service.stop();
    }
  });
});
