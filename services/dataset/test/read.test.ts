import { callerIn, creation, csvOf, parseJson, startDatasetService } from './service';

const alice = callerIn('ws_alice');
const bob = callerIn('ws_bob');
const notFound = { httpStatus: 404, body: { detail: 'Dataset not found' } };

describe('reading and deleting datasets', () => {
  let service: Awaited<ReturnType<typeof startDatasetService>>;
  beforeEach(async () => {
    service = await startDatasetService();
  });
  afterEach(() => service.stop());

  /** Creates datasets one minute apart, so "newest first" is well defined. */
  async function createMany(count: number, caller = alice, sessionOf = (_i: number) => '') {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const created = await service.client.createDataset(
        creation([{ i }], { name: `d${i}`, sessionId: sessionOf(i) }),
        { caller },
      );
      ids.push(created.dataset!.id);
      service.clock.advance(60_000);
    }
    return ids;
  }

  test('GetDataset answers the metadata; an unknown id is 404', async () => {
    const [id] = await createMany(1);
    const { dataset } = await service.client.getDataset({ datasetId: id }, { caller: alice });
    expect(dataset).toMatchObject({ id, name: 'd0', columns: ['i'], rowCount: 1, enrichStatus: 'none' });
    await expect(service.client.getDataset({ datasetId: 'ds_nope' }, { caller: alice })).rejects.toMatchObject(
      notFound,
    );
  });

  test('another workspace’s dataset answers exactly like an unknown one, on every RPC', async () => {
    const [id] = await createMany(1);
    const calls = [
      () => service.client.getDataset({ datasetId: id }, { caller: bob }),
      () => service.client.getRows({ datasetId: id }, { caller: bob }),
      () => csvOf(service.client, id, bob),
      () => service.client.deleteDataset({ datasetId: id }, { caller: bob }),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject(notFound);
    expect((await service.client.listDatasets({ sessionId: '' }, { caller: bob })).page!.total).toBe(0);
    expect((await service.client.getDataset({ datasetId: id }, { caller: alice })).dataset!.id).toBe(id);
  });

  test('ListDatasets: newest first, 10 by default, paged, with the total', async () => {
    const ids = await createMany(12);
    await createMany(1, bob);
    const first = await service.client.listDatasets({ sessionId: '' }, { caller: alice });
    expect(first.datasets.map((d) => d.id)).toEqual(ids.slice().reverse().slice(0, 10));
    expect(first.page).toEqual({ offset: 0, limit: 10, total: 12 });
    const second = await service.client.listDatasets(
      { sessionId: '', page: { offset: 10, limit: 5 } },
      { caller: alice },
    );
    expect(second.datasets.map((d) => d.id)).toEqual([ids[1], ids[0]]);
    expect(second.page).toEqual({ offset: 10, limit: 5, total: 12 });
  });

  test('ListDatasets filters by session', async () => {
    const ids = await createMany(4, alice, (i) => (i % 2 ? 'ses_odd' : ''));
    const odd = await service.client.listDatasets({ sessionId: 'ses_odd' }, { caller: alice });
    expect(odd.datasets.map((d) => d.id)).toEqual([ids[3], ids[1]]);
    expect(odd.page!.total).toBe(2);
    await expect(service.client.listDatasets({ sessionId: 'odd' }, { caller: alice })).rejects.toMatchObject({
      httpStatus: 400,
    });
  });

  test.each([
    [{ offset: -1, limit: 5 }, [{ loc: ['query', 'offset'], msg: 'must be >= 0', type: 'minimum' }]],
    [{ offset: 0, limit: 101 }, [{ loc: ['query', 'limit'], msg: 'must be <= 100', type: 'maximum' }]],
    [{ offset: 0, limit: -3 }, [{ loc: ['query', 'limit'], msg: 'must be >= 1', type: 'minimum' }]],
  ])('ListDatasets refuses the page %j with a 422', async (page, detail) => {
    await expect(service.client.listDatasets({ sessionId: '', page }, { caller: alice })).rejects.toMatchObject({
      httpStatus: 422,
      body: { detail },
    });
  });

  test('GetRows: 50 by default, in order, paged by offset, the total from the dataset', async () => {
    const rows = Array.from({ length: 120 }, (_, n) => ({ n }));
    const { dataset } = await service.client.createDataset(creation(rows), { caller: alice });
    const first = await service.client.getRows({ datasetId: dataset!.id }, { caller: alice });
    expect(parseJson(first.rowsJson)).toEqual(rows.slice(0, 50));
    expect(first.page).toEqual({ offset: 0, limit: 50, total: 120 });
    const last = await service.client.getRows(
      { datasetId: dataset!.id, page: { offset: 100, limit: 50 } },
      { caller: alice },
    );
    expect(parseJson(last.rowsJson)).toEqual(rows.slice(100));
    const past = await service.client.getRows(
      { datasetId: dataset!.id, page: { offset: 500, limit: 10 } },
      { caller: alice },
    );
    expect(parseJson(past.rowsJson)).toEqual([]);
    await expect(
      service.client.getRows({ datasetId: dataset!.id, page: { offset: 0, limit: 1001 } }, { caller: alice }),
    ).rejects.toMatchObject({ httpStatus: 422, body: { detail: [{ loc: ['query', 'limit'] }] } });
  });

  test('GetRows keeps every JSON value as it was sent', async () => {
    const rows = [{ 'a.b': 1, $c: [1, { d: null }], e: true, f: 'é"', g: 1.5e300 }];
    const { dataset } = await service.client.createDataset(creation(rows), { caller: alice });
    const page = await service.client.getRows({ datasetId: dataset!.id }, { caller: alice });
    expect(parseJson(page.rowsJson)).toEqual(rows);
  });

  test('DeleteDataset removes the dataset and its rows; deleting again is 404', async () => {
    const [keep, drop] = await createMany(2);
    expect(await service.client.deleteDataset({ datasetId: drop }, { caller: alice })).toEqual({ datasetId: drop });
    await expect(service.client.getDataset({ datasetId: drop }, { caller: alice })).rejects.toMatchObject(notFound);
    await expect(service.client.getRows({ datasetId: drop }, { caller: alice })).rejects.toMatchObject(notFound);
    await expect(service.client.deleteDataset({ datasetId: drop }, { caller: alice })).rejects.toMatchObject(notFound);
    expect(await service.storedRows()).toBe(1);
    const list = await service.client.listDatasets({ sessionId: '' }, { caller: alice });
    expect(list.datasets.map((d) => d.id)).toEqual([keep]);
  });

  test('DeleteDataset removes every row of a dataset larger than one delete batch (20,000)', async () => {
    const rows = Array.from({ length: 20_001 }, (_, n) => ({ n }));
    const { dataset } = await service.client.createDataset(creation(rows), { caller: alice });
    expect(await service.storedRows()).toBe(20_001);
    await service.client.deleteDataset({ datasetId: dataset!.id }, { caller: alice });
    expect(await service.storedRows()).toBe(0);
  });
});
