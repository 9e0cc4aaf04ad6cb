import { createBackends, createLogger, ManualClock, type Caller } from '@rde/platform';
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

describe('provider jobs: charges (rule 8, money)', () => {
  test('rows submitted again in a new job (a chunk walked again) settle into the same charge ids, which the ledger keeps once', async () => {
    const clock = new ManualClock();
    const backends = createBackends({ kind: 'memory', clock });
    const jobs = await EnrichJobRepository.open(await backends.documentStore('rde_waterfall'), clock);
    const vendor = new JobVendor();
    const providerJobs = new ProviderJobs(vendor, jobs, {} as DatasetClient, clock, createLogger('test', 'silent'), {
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
