import { createBackends, createLogger, ManualClock, type Caller } from '@rde/platform';
import { billingEvents } from '@rde/proto';
import { ProviderJobs } from '../src/app/jobs/provider-jobs';
import type { DatasetClient } from '../src/clients';
import type { ProviderCall, ProviderPort, ProviderResult } from '../src/clients/providers';
import { CHAINS } from '../src/domain/enrich/chains';
import { subjectOf } from '../src/domain/enrich/subject';
import { afterVerdict, startWalk } from '../src/domain/enrich/walk';
import { miss } from '../src/domain/enrich/verdicts';
import { EnrichJobRepository } from '../src/store/enrich-jobs';

const JOB = {
  poll: 'status',
  idField: 'request_id',
  callbackParameter: 'callback_url',
  statePath: ['state'],
  doneState: 'done',
};

/** A ringdirect-like vendor: every submit is a new job, done at the first poll with a mobile number. */
class JobVendor implements ProviderPort {
  submitted = 0;
  async contract() {
    return { price: 3_000, job: JOB };
  }
  async invoke(call: ProviderCall): Promise<ProviderResult> {
    if (call.method === 'submit') return { ok: true, answer: { request_id: `rq_${++this.submitted}` } };
    return { ok: true, answer: { state: 'done', mobile: '+14155550123' } };
  }
}

/** A vendor whose job is still running until `done` is set. */
class SlowJobVendor implements ProviderPort {
  done = false;
  async contract() {
    return { price: 3_000, job: JOB };
  }
  async invoke(call: ProviderCall): Promise<ProviderResult> {
    if (call.method === 'submit') return { ok: true, answer: { request_id: 'rq_slow' } };
    return { ok: true, answer: { state: this.done ? 'done' : 'running', mobile: '+14155550123' } };
  }
}

async function providerJobsOf(vendor: ProviderPort) {
  const clock = new ManualClock();
  const backends = createBackends({ kind: 'memory', clock });
  const jobs = await EnrichJobRepository.open(await backends.documentStore('rde_waterfall'), clock);
  const dataset = { updateRows: async () => ({}) } as unknown as DatasetClient;
  const providerJobs = new ProviderJobs(vendor, jobs, dataset, clock, createLogger('test', 'silent'), {
    pollBudgetMs: 1_000,
    pollIntervalMs: 10,
    leaseMs: 5_000,
    jobLifetimeMs: 600_000,
    owner: 'replica-1',
    callbackUrl: () => undefined,
    sleep: async (ms) => clock.advance(ms),
    publish: () => undefined,
    onHandedOffSettled: async () => undefined,
  });
  return { jobs, providerJobs };
}

describe('provider jobs: charges (rule 8, money)', () => {
  test("a job settled after its poll budget (handed off) charges for the caller's workflow run (decision 0088)", async () => {
    const vendor = new SlowJobVendor();
    const { jobs, providerJobs } = await providerJobsOf(vendor);
    const chain = CHAINS.phone_enrichment;
    const row = { linkedin_url: 'https://www.linkedin.com/in/ada-lovelace', full_name: 'Ada Lovelace' };
    const caller = { workspaceId: 'ws_1', userId: '', sessionId: '', workflowRunId: 'wfr_1' } as Caller;
    const run = { runId: 'enr_1', caller, capability: 'phone_enrichment' as const, stepIndex: 1, datasetId: 'ds_1' };
    const walk = afterVerdict(chain, startWalk(), miss('no_result'), 0);
    const rows = [{ index: 0, row, subject: subjectOf(row), input: { profile_url: row.linkedin_url }, walk }];
    expect((await providerJobs.run(run, chain.steps[1]!, JOB, 3_000, rows)).kind).toBe('open');

    vendor.done = true;
    expect(await providerJobs.pollHandedOff('ringdirect:rq_slow')).toBe(true);
    const settled = (await jobs.get('ringdirect:rq_slow')) as unknown as { _outbox: { value: string }[] };
    const [settlement] = settled._outbox.map((event) =>
      billingEvents.Settlement.decode(Buffer.from(event.value, 'base64')),
    );
    expect(settlement!.charges).toEqual([
      expect.objectContaining({ chargeId: 'enr_1:0:ringdirect.submit', workflowRunId: 'wfr_1' }),
    ]);
  });

  test('rows submitted again in a new job (a chunk walked again) settle into the same charge ids, which the ledger keeps once', async () => {
    const vendor = new JobVendor();
    const { jobs, providerJobs } = await providerJobsOf(vendor);
    const chain = CHAINS.phone_enrichment;
    const row = { linkedin_url: 'https://www.linkedin.com/in/ada-lovelace', full_name: 'Ada Lovelace' };
    const caller: Caller = { workspaceId: 'ws_1', userId: 'usr_1' } as Caller;
    const run = { runId: 'enr_1', caller, capability: 'phone_enrichment' as const, stepIndex: 1, datasetId: 'ds_1' };
    const walk = afterVerdict(chain, startWalk(), miss('no_result'), 0);
    const rows = [7, 8].map((index) => ({
      index,
      row,
      subject: subjectOf(row),
      input: { profile_url: row.linkedin_url },
      walk,
    }));

    const first = await providerJobs.run(run, chain.steps[1]!, JOB, 3_000, rows.slice(0, 1));
    const again = await providerJobs.run(run, chain.steps[1]!, JOB, 3_000, rows.slice(0, 1));
    const other = await providerJobs.run(run, chain.steps[1]!, JOB, 3_000, rows.slice(1));
    expect([first.kind, again.kind, other.kind]).toEqual(['settled', 'settled', 'settled']);
    expect(vendor.submitted).toBe(3);

    const charges = await Promise.all(
      ['rq_1', 'rq_2', 'rq_3'].map(async (jobId) => (await jobs.get(`ringdirect:${jobId}`))!.charges),
    );
    expect(charges.map((settled) => settled.map((charge) => charge.charge_id))).toEqual([
      ['enr_1:7:ringdirect.submit'],
      ['enr_1:7:ringdirect.submit'],
      ['enr_1:8:ringdirect.submit'],
    ]);
  });
});
