import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { enrichmentSupport } from './enrichment-support';

jest.setTimeout(180_000);

const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ n: from + i }));

/**
 * Appending rows to a dataset (decision 0047: the spec leaves dataset creation beyond inline rows
 * to us), through the gateway, with two dataset service replicas in distributed mode: datasets
 * are free, so the ledger holds no charge and no vendor is called.
 */
describe(`datasets: appending rows (${mode})`, () => {
  let rde: RunningRde;
  const { workspace, callsDuring, charges } = enrichmentSupport(() => rde);

  beforeAll(async () => {
    rde = await startRde({}, mode, { replicas: { dataset: 2 }, shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const create = async (key: string, count: number) => {
    const created = await api(rde, 'POST', '/api/v2/datasets', { key, body: { rows: rows(0, count) } });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };
  const append = (key: string, id: string, body: object) =>
    api(rde, 'POST', `/api/v2/datasets/${id}/rows`, { key, body });
  const stored = async (key: string, id: string) =>
    (await api(rde, 'GET', `/api/v2/datasets/${id}/rows?limit=1000`, { key })).body.rows as unknown[];

  test('rows are appended after the last row, or at the offset given, where a retry changes nothing', async () => {
    const key = await workspace();
    const id = await create(key, 3);
    const { result: appended, calls } = await callsDuring(() =>
      append(key, id, { rows: [{ n: 3, email: 'a@b.com' }] }),
    );
    expect(appended.status).toBe(200);
    expect(appended.body).toMatchObject({ id, row_count: 4, columns: ['n', 'email'] });
    const atOffset = await append(key, id, { offset: 4, rows: rows(4, 2) });
    expect(atOffset.body).toMatchObject({ row_count: 6 });
    const retried = await append(key, id, { offset: 4, rows: rows(4, 2) });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(atOffset.body);
    // Other rows at positions already held are refused, not taken for a retry.
    expect((await append(key, id, { offset: 4, rows: rows(40, 2) })).status).toBe(409);
    expect(await stored(key, id)).toEqual([...rows(0, 3), { n: 3, email: 'a@b.com' }, ...rows(4, 2)]);
    const csv = await api(rde, 'GET', `/api/v2/datasets/${id}/csv`, { key });
    expect(csv.text.trimEnd().split('\n')).toHaveLength(7);
    expect(calls).toEqual({});
    expect(await charges(key)).toEqual([]);
  });

  test('409 append_conflict when the offset is not the row count, and two appends at one offset: one lands', async () => {
    const key = await workspace();
    const id = await create(key, 2);
    const gap = await append(key, id, { offset: 3, rows: rows(3, 1) });
    expect(gap.status).toBe(409);
    expect(gap.body.detail).toMatchObject({ reason: 'append_conflict', row_count: 2, offset: 3 });
    const raced = await Promise.all([
      append(key, id, { offset: 2, rows: rows(100, 50) }),
      append(key, id, { offset: 2, rows: rows(200, 50) }),
    ]);
    expect(raced.map((response) => response.status).sort()).toEqual([200, 409]);
    const won = raced[0]!.status === 200 ? rows(100, 50) : rows(200, 50);
    expect(await stored(key, id)).toEqual([...rows(0, 2), ...won]);
    expect(await charges(key)).toEqual([]);
  });

  test('404 for another workspace’s dataset, 422 for a body that is not rows; nothing changes', async () => {
    const key = await workspace();
    const id = await create(key, 1);
    const other = await workspace();
    expect((await append(other, id, { rows: rows(1, 1) })).status).toBe(404);
    for (const body of [
      { rows: [] },
      { rows: [1] },
      { rows: rows(1, 1), offset: -1 },
      { rows: rows(1, 1), at: 1 },
      {},
    ]) {
      const refused = await append(key, id, body);
      expect(refused.status).toBe(422);
      expect(refused.body.detail[0]).toMatchObject({ loc: expect.arrayContaining(['body']) });
    }
    expect(await stored(key, id)).toEqual(rows(0, 1));
  });
});
