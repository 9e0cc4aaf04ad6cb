import type { Caller, Logger } from '@rde/platform';
import { subjectOf } from '../src/domain/enrich/subject';
import { miss } from '../src/domain/enrich/verdicts';
import type { RowWalk } from '../src/domain/enrich/walk';
import type { JobOutcome, JobRowInput, ProviderJobs } from '../src/app/enrich/provider-jobs';
import type { ProviderCall, ProviderPort } from '../src/app/enrich/providers';
import { RowWalker, type RowsRun } from '../src/app/enrich/walk-rows';
import type { RunCharge } from '../src/store/runs';

const ROWS = 6;
const JOB = { poll: 'poll', id_field: 'id', callback_parameter: 'cb', state_path: ['state'], done_state: 'done' };

/** MailFinder misses every row, row `i` answering after `i` turns of the event loop; the jobs miss too. */
function fakeVendors() {
  const events: string[] = [];
  const providers: ProviderPort = {
    contract: async (tool) => ({
      price: 1_000,
      job:
        tool === 'bulkmail'
          ? {
              ...JOB,
              batch: { max_size: 100, items_parameter: 'items', correlation_field: 'ref', results_path: ['results'] },
            }
          : JOB,
    }),
    invoke: async (call: ProviderCall) => {
      const row = Number(call.invocationId!.split(':')[1]);
      for (let turn = 0; turn <= row * 5; turn++) await new Promise((resolve) => setImmediate(resolve));
      events.push(`mailfinder answered row ${row}`);
      return { ok: true, answer: { data: {} } };
    },
  };
  const jobs = {
    run: async (run: { stepIndex: number }, step: { tool: string }, _shape, _price, rows: readonly JobRowInput[]) => {
      events.push(`${step.tool} got rows ${rows.map((r) => r.index).join(',')}`);
      return { kind: 'failed', verdict: miss('no_result', 'nothing found') } satisfies JobOutcome;
    },
  } as unknown as ProviderJobs;
  return { events, providers, jobs };
}

function rowsRun(groupRows?: number): RowsRun {
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    name: `Ada Lovelace${i}`,
    company_domain: 'acme.com',
    linkedin_url: `https://www.linkedin.com/in/ada-${i}`,
  }));
  return {
    runId: 'enr_1',
    caller: { workspaceId: 'ws_1' } as Caller,
    capability: 'email_enrichment',
    datasetId: 'ds_1',
    rows,
    subjects: rows.map((row) => subjectOf(row)),
    asOf: '2026-11',
    ...(groupRows && { groupRows }),
  };
}

const logger = { debug: () => undefined } as unknown as Logger;

async function walkAll(groupRows?: number) {
  const { events, providers, jobs } = fakeVendors();
  const finished = new Map<number, { walk: RowWalk; charges: readonly RunCharge[] }>();
  await new RowWalker(providers, jobs, logger).walk(rowsRun(groupRows), (index, walk, charges) => {
    expect(finished.has(index)).toBe(false);
    finished.set(index, { walk, charges });
  });
  return { events, finished };
}

describe('rule 5: rows walk the chain in groups, all groups at once', () => {
  test("a group's misses reach the next provider before the first provider has answered the last group", async () => {
    const { events, finished } = await walkAll(2);
    expect(events.indexOf('bulkmail got rows 0,1')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('bulkmail got rows 0,1')).toBeLessThan(events.indexOf(`mailfinder answered row ${ROWS - 1}`));
    expect(events.filter((e) => e.startsWith('bulkmail'))).toEqual(
      expect.arrayContaining(['bulkmail got rows 0,1', 'bulkmail got rows 2,3', 'bulkmail got rows 4,5']),
    );
    // Every row walked the whole chain once and ended free.
    expect([...finished.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const { walk, charges } of finished.values()) {
      expect(walk.steps.map((s) => s.step)).toEqual(['mailfinder.find', 'bulkmail.submit', 'reachout.submit']);
      expect(charges).toEqual([]);
    }
  });

  test('without a group size every row is one group: the batch provider gets one job after every answer', async () => {
    const { events } = await walkAll();
    expect(events.filter((e) => e.startsWith('bulkmail'))).toEqual(['bulkmail got rows 0,1,2,3,4,5']);
    expect(events.indexOf('bulkmail got rows 0,1,2,3,4,5')).toBeGreaterThan(
      events.indexOf(`mailfinder answered row ${ROWS - 1}`),
    );
  });
});
