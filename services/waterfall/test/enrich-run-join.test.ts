import { createBackends, createLogger, CreditHolds, ManualClock, RdeError, type Caller } from '@rde/platform';
import type { CallRuns } from '../src/app/runs/call-runs';
import { EnrichRuns } from '../src/app/runs/enrich-runs';
import type { BillingClient, WaterfallClients } from '../src/clients';
import type { ProviderPort } from '../src/clients/providers';
import { callerOf } from '../src/domain/callers';
import { DatasetRunRepository } from '../src/store/dataset-runs';
import { EnrichRunRepository } from '../src/store/enrich-runs';
import { RunChunkRepository } from '../src/store/run-chunks';

/** The spec's 15-minute reattach of an identical run: the join by id must hold after it too. */
const REPLAY_WINDOW_MS = 15 * 60_000;
const BODY = { input_rows: [{ linkedin_url: 'https://www.linkedin.com/in/ada' }], steps: ['phone_enrichment'] };
/** A workflow step item's call id, as the workflow service derives it. */
const CALL_ID = `run_${'c'.repeat(24)}`;

/** Billing and the dataset service as far as a run's start goes, counting the holds and the datasets made. */
function doubles() {
  const holds: string[] = [];
  const datasets: string[] = [];
  const billing = {
    getBalance: async () => ({ account: { available: { millicredits: 100_000 }, balance: { millicredits: 100_000 } } }),
    reserve: async ({ holdId, amount }: { holdId: string; amount: { millicredits: number } }) => {
      holds.push(holdId);
      return { held: amount, account: {} };
    },
  } as unknown as BillingClient;
  const dataset = {
    createDataset: async ({ datasetId }: { datasetId: string }) => (datasets.push(datasetId), {}),
    getDataset: async () => ({ dataset: { columns: [] } }),
    getRows: async () => ({ rowsJson: Buffer.from('[]') }),
  };
  const clients = { billing, dataset, catalog: {}, subscriptions: {} } as unknown as WaterfallClients;
  return { holds, datasets, clients };
}

describe('a dataset run started under a caller run id (a workflow step: decision 0088)', () => {
  async function runsUnderTest() {
    const clock = new ManualClock();
    const backends = createBackends({ kind: 'memory', clock });
    const store = await backends.documentStore('rde_waterfall');
    const { holds, datasets, clients } = doubles();
    const published: string[] = [];
    const providers: ProviderPort = { contract: async () => ({ price: 3_000 }), invoke: async () => ({}) } as never;
    const stored = new DatasetRunRepository(await EnrichRunRepository.open(store, clock), clock);
    const runs = new EnrichRuns({
      runs: stored,
      chunks: await RunChunkRepository.open(store, clock),
      callRuns: {} as CallRuns,
      providers,
      clients,
      holds: new CreditHolds(clients.billing, 60_000),
      replayKeys: await backends.keyValue('waterfall'),
      clock,
      logger: createLogger('test', 'silent'),
      // Nothing walks the chunks here: a start's wait for its run passes on the clock alone.
      sleep: async (ms) => clock.advance(ms),
      publishRun: (runId) => void published.push(runId),
      options: {
        chunkRows: 10,
        detachMs: 1_000,
        blockMs: 1_000,
        workspaceRunLimit: 5,
        replayWindowMs: REPLAY_WINDOW_MS,
      },
    });
    return { runs, stored, clock, holds, datasets, published };
  }

  const caller = (workspaceId: string) =>
    ({ workspaceId, userId: '', sessionId: '', workflowRunId: 'wfr_1' }) as Caller;

  test('a repeat after the reattach window joins the first run: one hold, one output dataset, one launch', async () => {
    const { runs, clock, holds, datasets, published } = await runsUnderTest();
    const first = await runs.start(BODY, caller('ws_a'), CALL_ID);
    clock.advance(REPLAY_WINDOW_MS + 1);
    const repeat = await runs.start(BODY, caller('ws_a'), CALL_ID);
    expect(repeat.run_id).toBe(first.run_id);
    expect(repeat._meta.replayed).toBeUndefined();
    expect([holds, datasets, published].map((calls) => calls.length)).toEqual([1, 1, 1]);
    // Without the id the same start after the window is a second run, held and launched again.
    const unnamed = await runs.start(BODY, caller('ws_a'));
    expect(unnamed.run_id).not.toBe(first.run_id);
    expect(holds).toHaveLength(2);
  });

  test("the id is scoped to the caller's workspace, and a malformed one is refused before anything", async () => {
    const { runs, holds } = await runsUnderTest();
    const mine = await runs.start(BODY, caller('ws_a'), CALL_ID);
    const theirs = await runs.start(BODY, caller('ws_b'), CALL_ID);
    expect(theirs.run_id).not.toBe(mine.run_id);
    const refused = await runs.start(BODY, caller('ws_a'), 'run_short').catch((error: RdeError) => error.httpStatus);
    expect(refused).toBe(400);
    expect(holds).toHaveLength(2);
  });

  test('the run keeps the workflow run it was started for: its chunks, ended later, charge for that run', async () => {
    const { runs, stored } = await runsUnderTest();
    const started = await runs.start(BODY, caller('ws_a'), CALL_ID);
    const run = await stored.find('ws_a', String(started.run_id));
    expect(callerOf(run!)).toMatchObject({ workspaceId: 'ws_a', workflowRunId: 'wfr_1' });
  });
});
