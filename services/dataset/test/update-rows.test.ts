import { RdeError } from '@rde/platform';
import { callerIn, creation, parseJson, startDatasetService } from './service';

const alice = callerIn('ws_alice');
const bob = callerIn('ws_bob');
const rowAt = (index: number, row: unknown) => ({ index, rowJson: Buffer.from(JSON.stringify(row)) });

describe('UpdateRows', () => {
  let service: Awaited<ReturnType<typeof startDatasetService>>;
  beforeEach(async () => {
    service = await startDatasetService();
  });
  afterEach(() => service.stop());

  test('replaces rows at their positions and sets the enrich status; writing them again changes nothing', async () => {
    const created = await service.client.createDataset(creation([{ a: 1 }, { a: 2 }, { a: 3 }]), { caller: alice });
    const datasetId = created.dataset!.id;
    const update = { datasetId, rows: [rowAt(2, { a: 3, email: 'c@x.com' })], enrichStatus: 'running' };
    await service.client.updateRows(update, { caller: alice });
    await service.client.updateRows(update, { caller: alice });
    const page = await service.client.getRows({ datasetId }, { caller: alice });
    expect(parseJson(page.rowsJson)).toEqual([{ a: 1 }, { a: 2 }, { a: 3, email: 'c@x.com' }]);
    expect((await service.client.getDataset({ datasetId }, { caller: alice })).dataset!.enrichStatus).toBe('running');
  });

  test('the rows’ new keys join the dataset’s columns (the CSV export’s header), parallel writers losing none', async () => {
    const created = await service.client.createDataset(creation([{ a: 1 }, { a: 2 }]), { caller: alice });
    const datasetId = created.dataset!.id;
    await Promise.all([
      service.client.updateRows(
        { datasetId, rows: [rowAt(0, { a: 1, email: 'a@x.com' })], enrichStatus: '' },
        { caller: alice },
      ),
      service.client.updateRows(
        { datasetId, rows: [rowAt(1, { a: 2, hit: false })], enrichStatus: '' },
        { caller: alice },
      ),
    ]);
    const { columns } = (await service.client.getDataset({ datasetId }, { caller: alice })).dataset!;
    expect([...columns].sort()).toEqual(['a', 'email', 'hit']);
    expect(columns[0]).toBe('a');
  });

  test('another workspace’s dataset is 404, a position outside it or a non-object row 400, and nothing changes', async () => {
    const created = await service.client.createDataset(creation([{ a: 1 }]), { caller: alice });
    const datasetId = created.dataset!.id;
    const refused = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: unknown) => (error instanceof RdeError ? error.httpStatus : error),
      );
    expect(
      await refused(
        service.client.updateRows({ datasetId, rows: [rowAt(0, { a: 9 })], enrichStatus: '' }, { caller: bob }),
      ),
    ).toBe(404);
    expect(
      await refused(
        service.client.updateRows({ datasetId, rows: [rowAt(1, { a: 9 })], enrichStatus: '' }, { caller: alice }),
      ),
    ).toBe(400);
    expect(
      await refused(
        service.client.updateRows({ datasetId, rows: [rowAt(0, [1])], enrichStatus: '' }, { caller: alice }),
      ),
    ).toBe(400);
    const page = await service.client.getRows({ datasetId }, { caller: alice });
    expect(parseJson(page.rowsJson)).toEqual([{ a: 1 }]);
  });
});
