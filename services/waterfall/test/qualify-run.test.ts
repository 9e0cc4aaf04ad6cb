import { createLogger, type Caller } from '@rde/platform';
import { Qualifier } from '../src/app/qualify/qualify';
import { QualifyRuns } from '../src/app/qualify/qualify-run';
import type { DatasetClient } from '../src/clients';

const caller = { workspaceId: 'ws_a', userId: 'usr_a', sessionId: '' } as Caller;
const JUNE_2026 = { now: () => Date.UTC(2026, 5, 1) };
const candidates = [
  { full_name: 'A', experience: [{ title: 'Backend Engineer', company: 'X', start: '2020-01', end: null }] },
  { full_name: 'B', title: 'Florist' },
];

/** Records the dataset calls; UpdateRows with cells fails when asked to. */
function datasetStub(failCellWrites: boolean) {
  const statuses: string[] = [];
  const cells: number[] = [];
  const stub = {
    createDataset: jest.fn(async () => ({})),
    updateRows: jest.fn(async (request: { rows: { index: number }[]; enrichStatus: string }) => {
      if (request.rows.length && failCellWrites) throw new Error('dataset unavailable');
      cells.push(...request.rows.map((row) => row.index));
      if (request.enrichStatus) statuses.push(request.enrichStatus);
      return {};
    }),
  };
  return { client: stub as unknown as DatasetClient, statuses, cells };
}

async function run(failCellWrites: boolean) {
  const dataset = datasetStub(failCellWrites);
  const runs = new QualifyRuns(dataset.client, createLogger('test', 'silent'));
  const checked = new Qualifier(JUNE_2026).check({
    jobSpec: 'Backend Engineer',
    candidates,
    minScore: undefined,
    allowThinProfiles: false,
  });
  const started = await runs.start(checked, caller);
  await new Promise((resolve) => setImmediate(resolve));
  return { started, ...dataset };
}

describe('qualify runs (async)', () => {
  test('the dataset is running before the answer, then every position gets its cell and completed', async () => {
    const { started, statuses, cells } = await run(false);
    expect(started.runId).toMatch(/^qlf_[0-9a-f]{24}$/);
    expect(started.datasetId).toMatch(/^ds_[0-9a-f]{24}$/);
    expect(statuses).toEqual(['running', 'completed']);
    expect(cells.sort()).toEqual([0, 1]);
  });

  test('a failed write marks the dataset failed instead of leaving it running', async () => {
    const { statuses, cells } = await run(true);
    expect(statuses).toEqual(['running', 'failed']);
    expect(cells).toEqual([]);
  });
});
