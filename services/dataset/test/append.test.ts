import { callerIn, creation, csvOf, flakyRows, parseJson, rowsJson, startDatasetService } from './service';

const alice = callerIn('ws_alice');
const bob = callerIn('ws_bob');
const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ n: from + i }));

type Service = Awaited<ReturnType<typeof startDatasetService>>;

async function allRows(service: Service, datasetId: string) {
  const page = await service.client.getRows({ datasetId, page: { offset: 0, limit: 1000 } }, { caller: alice });
  return parseJson(page.rowsJson) as unknown[];
}

const append = (service: Service, datasetId: string, offset: number, appended: unknown, caller = alice) =>
  service.client.appendRows({ datasetId, offset, rowsJson: rowsJson(appended) }, { caller });

describe('AppendRows', () => {
  let service: Service;
  beforeEach(async () => {
    service = await startDatasetService({ env: { RDE_DATASET_WRITE_BATCH: '10' } });
  });
  afterEach(() => service.stop());

  test('appends at the row count, adds new columns, and a retry of the same append changes nothing', async () => {
    const { dataset } = await service.client.createDataset(creation(rows(0, 25)), { caller: alice });
    const datasetId = dataset!.id;
    const more = [...rows(25, 24), { n: 49, email: 'x@y.com' }];
    const appended = await append(service, datasetId, 25, more);
    expect(appended.dataset).toMatchObject({ id: datasetId, rowCount: 50, columns: ['n', 'email'] });
    expect(await append(service, datasetId, 25, more)).toEqual(appended);
    expect(await append(service, datasetId, 25, rows(90, 3)).catch((e) => e)).toMatchObject({ httpStatus: 409 });
    expect(await allRows(service, datasetId)).toEqual([...rows(0, 25), ...more]);
    expect(await service.storedRows()).toBe(50);
    expect((await csvOf(service.client, datasetId, alice)).text.split('\n')).toHaveLength(52);
  });

  test('an offset that is not the row count is a 409 naming it; another workspace’s dataset a 404; nothing is stored', async () => {
    const { dataset } = await service.client.createDataset(creation(rows(0, 3)), { caller: alice });
    const datasetId = dataset!.id;
    expect(await append(service, datasetId, 4, rows(4, 2)).catch((e) => e)).toMatchObject({
      httpStatus: 409,
      body: { detail: expect.objectContaining({ reason: 'append_conflict', row_count: 3, offset: 4 }) },
    });
    expect(await append(service, datasetId, 2, rows(2, 2)).catch((e) => e)).toMatchObject({ httpStatus: 409 });
    expect(await append(service, datasetId, 3, rows(3, 2), bob).catch((e) => e)).toMatchObject({ httpStatus: 404 });
    expect(await append(service, datasetId, 3, [1]).catch((e) => e)).toMatchObject({ httpStatus: 422 });
    expect(await allRows(service, datasetId)).toEqual(rows(0, 3));
    expect(await service.storedRows()).toBe(3);
  });

  test('two appends at one offset: one lands whole, the other is a 409 and leaves nothing', async () => {
    const { dataset } = await service.client.createDataset(creation(rows(0, 5)), { caller: alice });
    const datasetId = dataset!.id;
    const first = rows(100, 40);
    const second = rows(200, 40);
    const outcomes = await Promise.allSettled([
      append(service, datasetId, 5, first),
      append(service, datasetId, 5, second),
    ]);
    const landed = outcomes.findIndex((outcome) => outcome.status === 'fulfilled');
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([
      { status: 'rejected', reason: expect.objectContaining({ httpStatus: 409 }) },
    ]);
    expect(await allRows(service, datasetId)).toEqual([...rows(0, 5), ...[first, second][landed]!]);
  });

  test('an append past the rows quota is a 409 that stores nothing, and the next append fits', async () => {
    await service.stop();
    service = await startDatasetService({ env: { RDE_DATASET_QUOTA_ROWS: '10' } });
    const { dataset } = await service.client.createDataset(creation(rows(0, 6)), { caller: alice });
    const datasetId = dataset!.id;
    expect(await append(service, datasetId, 6, rows(6, 5)).catch((e) => e)).toMatchObject({
      httpStatus: 409,
      body: { detail: expect.objectContaining({ reason: 'dataset_quota_exceeded', quota: 'rows' }) },
    });
    expect((await append(service, datasetId, 6, rows(6, 4))).dataset).toMatchObject({ rowCount: 10 });
  });
});

describe('AppendRows cut short', () => {
  test('rows of an append cut short are never shown; its retry, or after its hold lapses another append, finishes', async () => {
    const flaky = flakyRows(Infinity);
    const service = await startDatasetService({ wrapStore: flaky.wrapStore, env: { RDE_DATASET_WRITE_BATCH: '10' } });
    try {
      const { dataset } = await service.client.createDataset(creation(rows(0, 10)), { caller: alice });
      const datasetId = dataset!.id;
      flaky.failAfter(2);
      expect(await append(service, datasetId, 10, rows(10, 30)).catch((e) => e)).toMatchObject({ httpStatus: 500 });
      expect(await service.storedRows()).toBe(30);
      expect(await allRows(service, datasetId)).toEqual(rows(0, 10));
      expect((await csvOf(service.client, datasetId, alice)).text.split('\n')).toHaveLength(12);
      flaky.heal();
      // Other rows wait while the append cut short still holds the dataset…
      expect(await append(service, datasetId, 10, rows(500, 15)).catch((e) => e)).toMatchObject({ httpStatus: 409 });
      // …and once its hold lapses they replace what it left.
      service.clock.advance(60_001);
      expect((await append(service, datasetId, 10, rows(500, 15))).dataset).toMatchObject({ rowCount: 25 });
      expect(await allRows(service, datasetId)).toEqual([...rows(0, 10), ...rows(500, 15)]);
      // The same append retried takes over at once.
      flaky.failAfter(1);
      expect(await append(service, datasetId, 25, rows(25, 20)).catch((e) => e)).toMatchObject({ httpStatus: 500 });
      flaky.heal();
      expect((await append(service, datasetId, 25, rows(25, 20))).dataset).toMatchObject({ rowCount: 45 });
      expect(await allRows(service, datasetId)).toEqual([...rows(0, 10), ...rows(500, 15), ...rows(25, 20)]);
      flaky.failAfter(1);
      await append(service, datasetId, 45, rows(45, 15)).catch(() => undefined);
      flaky.heal();
      expect(await service.storedRows()).toBe(55);
      // Deleting the dataset takes the rows past its count too.
      await service.client.deleteDataset({ datasetId }, { caller: alice });
      expect(await service.storedRows()).toBe(0);
    } finally {
      await service.stop();
    }
  });
});

describe('CreateDataset as a copy', () => {
  let service: Service;
  beforeEach(async () => {
    service = await startDatasetService({ env: { RDE_DATASET_WRITE_BATCH: '10', RDE_DATASET_QUOTA_ROWS: '100' } });
  });
  afterEach(() => service.stop());

  test('copies every row of a dataset of the workspace in batches, counts it in the quota, and a replay changes nothing', async () => {
    const { dataset: source } = await service.client.createDataset(creation(rows(0, 45)), { caller: alice });
    const copy = creation([], {
      datasetId: 'ds_copy',
      name: 'copy',
      rowsJson: Buffer.alloc(0),
      copyOfDatasetId: source!.id,
    });
    const created = await service.client.createDataset(copy, { caller: alice });
    expect(created.dataset).toMatchObject({ id: 'ds_copy', name: 'copy', rowCount: 45, columns: ['n'] });
    expect(parseJson(created.sampleJson)).toEqual(rows(0, 5));
    expect(await service.client.createDataset(copy, { caller: alice })).toEqual(created);
    expect(await allRows(service, 'ds_copy')).toEqual(rows(0, 45));
    // 90 of the 100 rows the quota allows are held: another copy does not fit.
    const another = { ...copy, datasetId: 'ds_copy2' };
    expect(await service.client.createDataset(another, { caller: alice }).catch((e) => e)).toMatchObject({
      httpStatus: 409,
      body: { detail: expect.objectContaining({ reason: 'dataset_quota_exceeded', quota: 'rows' }) },
    });
  });

  test('a copy of another workspace’s dataset is a 404, and rows sent with a copy a 400; nothing is stored', async () => {
    const { dataset: source } = await service.client.createDataset(creation(rows(0, 3)), { caller: alice });
    const copyOf = (fields: object) =>
      creation([], { rowsJson: Buffer.alloc(0), copyOfDatasetId: source!.id, ...fields });
    expect(await service.client.createDataset(copyOf({}), { caller: bob }).catch((e) => e)).toMatchObject({
      httpStatus: 404,
    });
    expect(
      await service.client.createDataset(copyOf({ rowsJson: rowsJson(rows(0, 1)) }), { caller: alice }).catch((e) => e),
    ).toMatchObject({ httpStatus: 400 });
    expect(await service.storedRows()).toBe(3);
  });
});
