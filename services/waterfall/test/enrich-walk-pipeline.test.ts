import type { Caller, Logger } from '@rde/platform';
import { subjectOf } from '../src/domain/enrich/subject';
import { miss } from '../src/domain/enrich/verdicts';
import type { JobOutcome, JobRowInput, ProviderJobPort } from '../src/app/enrich/job-port';
import { PacedProviders, type ProviderCall, type ProviderPort } from '../src/clients/providers';
import { RowWalker, type RowsRun } from '../src/app/enrich/walk-rows';

const JOB = { poll: 'poll', idField: 'id', callbackParameter: 'cb', statePath: ['state'], doneState: 'done' };
const BATCH = { maxSize: 100, itemsParameter: 'items', correlationField: 'ref', resultsPath: ['results'] };

/**
 * MailFinder misses every row and refuses its first call once with a 429; the jobs miss too. The
 * vendor answers one call at a time, so the log shows the order the rows were served in.
 */
function fakeVendors() {
  const events: string[] = [];
  let refused = false;
  const vendor: ProviderPort = {
    contract: async (tool) => ({ price: 1_000, job: tool === 'bulkmail' ? { ...JOB, batch: BATCH } : JOB }),
    invoke: async (call: ProviderCall) => {
      await new Promise((resolve) => setImmediate(resolve));
      if (!refused) {
        refused = true;
        return { ok: false, reason: 'rate_limited', message: '429', retryAfterMs: 1_000 };
      }
      const [runId, row] = call.invocationId!.split(':');
      events.push(`mailfinder answered ${runId} row ${row}`);
      return { ok: true, answer: { data: {} } };
    },
  };
  let now = 0;
  const providers = new PacedProviders(vendor, {
    concurrency: 1,
    rateLimitBudgetMs: 60_000,
    sleep: async (ms) => {
      now += ms;
    },
    now: () => now,
  });
  const jobs = {
    run: async (
      run: { runId: string },
      step: { tool: string },
      _shape: unknown,
      _price: number,
      rows: JobRowInput[],
    ) => {
      events.push(`${step.tool} got ${run.runId} rows ${rows.map((r) => r.index).join(',')}`);
      return { kind: 'failed', verdict: miss('no_result', 'nothing found') } satisfies JobOutcome;
    },
  } as unknown as ProviderJobPort;
  return { events, walker: new RowWalker(providers, jobs, { debug: () => undefined } as unknown as Logger) };
}

function rowsRun(runId: string): RowsRun {
  const rows = [0, 1, 2].map((i) => ({
    name: `Ada Lovelace${i}`,
    company_domain: 'acme.com',
    linkedin_url: `https://www.linkedin.com/in/${runId}-${i}`,
  }));
  return {
    runId,
    caller: { workspaceId: 'ws_1' } as Caller,
    capability: 'email_enrichment',
    datasetId: `ds_${runId}`,
    rows,
    subjects: rows.map((row) => subjectOf(row)),
    asOf: '2026-11',
  };
}

describe('rule 5: calls walked at once pipeline through the chain', () => {
  test("the first call's misses reach the batch vendor, as one job, while the first vendor still answers the second call", async () => {
    const { events, walker } = fakeVendors();
    const finished: string[] = [];
    await Promise.all(
      ['enr_a', 'enr_b'].map((runId) => walker.walk(rowsRun(runId), (index) => finished.push(`${runId}:${index}`))),
    );
    // enr_a's first row was refused with a 429; it is retried in its turn, not after enr_b's rows.
    expect(events.filter((e) => e.startsWith('mailfinder'))).toEqual([
      'mailfinder answered enr_a row 0',
      'mailfinder answered enr_a row 1',
      'mailfinder answered enr_a row 2',
      'mailfinder answered enr_b row 0',
      'mailfinder answered enr_b row 1',
      'mailfinder answered enr_b row 2',
    ]);
    expect(events.indexOf('bulkmail got enr_a rows 0,1,2')).toBeLessThan(
      events.indexOf('mailfinder answered enr_b row 2'),
    );
    expect(events.filter((e) => e.startsWith('bulkmail'))).toEqual([
      'bulkmail got enr_a rows 0,1,2',
      'bulkmail got enr_b rows 0,1,2',
    ]);
    // Every row walked the chain to its end once.
    expect(finished.sort()).toEqual(['enr_a:0', 'enr_a:1', 'enr_a:2', 'enr_b:0', 'enr_b:1', 'enr_b:2']);
  });
});
