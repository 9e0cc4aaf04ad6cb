import { callerIn, creation, rowsJson, startDatasetService } from './service';

/** Per-workspace dataset quotas (RDE_DATASET_QUOTA_*): a create past one is a 409 that changes nothing. */
const alice = callerIn('ws_alice');
const bob = callerIn('ws_bob');
const rows = (count: number) => Array.from({ length: count }, (_, n) => ({ n }));

async function service(env: NodeJS.ProcessEnv) {
  const started = await startDatasetService({ env });
  const create = (count: number, caller = alice) =>
    started.client.createDataset(creation(rows(count)), { caller }).catch((error) => error);
  const held = async (caller = alice) =>
    (await started.client.listDatasets({ sessionId: '', page: { offset: 0, limit: 100 } }, { caller })).page!.total;
  return { ...started, create, held };
}

function quotaRefusal(quota: string, limit: number, used: number, requested: number) {
  return {
    httpStatus: 409,
    body: {
      detail: expect.objectContaining({ reason: 'dataset_quota_exceeded', quota, limit, used, requested }),
    },
  };
}

describe('dataset quotas', () => {
  test('the dataset count quota refuses the next dataset with a 409 naming it, stores nothing, and a delete makes room', async () => {
    const datasets = await service({ RDE_DATASET_QUOTA_DATASETS: '2' });
    const first = await datasets.create(1);
    await datasets.create(1);
    expect(await datasets.create(1)).toMatchObject(quotaRefusal('datasets', 2, 2, 1));
    expect(await datasets.held()).toBe(2);
    expect(await datasets.storedRows()).toBe(2);
    // Another workspace has its own quota.
    expect((await datasets.create(1, bob)).dataset).toBeDefined();
    await datasets.client.deleteDataset({ datasetId: first.dataset.id }, { caller: alice });
    expect(await datasets.storedRows()).toBe(2); // its rows are gone from the store, not only hidden
    expect((await datasets.create(1)).dataset).toBeDefined();
    await datasets.stop();
  });

  test('the row quota counts rows across the workspace’s datasets', async () => {
    const datasets = await service({ RDE_DATASET_QUOTA_ROWS: '10' });
    await datasets.create(6);
    expect(await datasets.create(5)).toMatchObject(quotaRefusal('rows', 10, 6, 5));
    expect((await datasets.create(4)).dataset.rowCount).toBe(4);
    expect(await datasets.storedRows()).toBe(10);
    await datasets.stop();
  });

  test('the byte quota counts the rows’ JSON as sent', async () => {
    const bytes = rowsJson(rows(3)).length;
    const datasets = await service({ RDE_DATASET_QUOTA_BYTES: String(bytes * 2) });
    await datasets.create(3);
    await datasets.create(3);
    expect(await datasets.create(1)).toMatchObject(
      quotaRefusal('bytes', bytes * 2, bytes * 2, rowsJson(rows(1)).length),
    );
    expect(await datasets.held()).toBe(2);
    await datasets.stop();
  });

  test('a replayed create with the same id is counted once', async () => {
    const datasets = await service({ RDE_DATASET_QUOTA_DATASETS: '1' });
    const request = creation(rows(2), { datasetId: 'ds_replayed' });
    await datasets.client.createDataset(request, { caller: alice });
    const replay = await datasets.client.createDataset(request, { caller: alice });
    expect(replay.dataset!.id).toBe('ds_replayed');
    expect(await datasets.create(1)).toMatchObject(quotaRefusal('datasets', 1, 1, 1));
    await datasets.stop();
  });
});
