import { createBackends, ManualClock } from '@rde/platform';
import { EnrichJobRepository, jobKeyOf, type NewEnrichJob } from '../src/store/enrich-jobs';
import { nonceHashOf } from '../src/domain/enrich/ids';

const event = (id: string) => ({ id, topic: 'billing.settlements', key: 'ws_1', value: new Uint8Array([1]) });

describe('provider jobs: leases, callbacks and one settlement (rule 8, events 2)', () => {
  const clock = new ManualClock();
  let jobs: EnrichJobRepository;

  beforeEach(async () => {
    const backends = createBackends({ kind: 'memory', clock });
    jobs = await EnrichJobRepository.open(await backends.documentStore('rde_waterfall'), clock);
  });

  const newJob = (jobId: string, leaseOwner = 'request', leaseMs = 5_000): NewEnrichJob => ({
    provider: 'ringdirect',
    job_id: jobId,
    workspace_id: 'ws_1',
    user_id: 'usr_1',
    session_id: '',
    run_id: 'enr_1',
    dataset_id: 'ds_1',
    capability: 'phone_enrichment',
    step_index: 1,
    hold_id: 'enr_1',
    price_millicredits: 3_000,
    rows: [{ index: 0, row: {}, walk: {} }],
    nonce_hash: nonceHashOf('nonce-1'),
    lease_owner: leaseOwner,
    lease_until: new Date(clock.now() + leaseMs),
    next_poll_at: new Date(clock.now()),
    expires_at: new Date(clock.now() + 600_000),
  });

  test('two replicas never hold one job: the first claim wins until its lease lapses', async () => {
    await jobs.insert(newJob('rq_1', 'request', 0));
    clock.advance(1_000);
    const key = jobKeyOf('ringdirect', 'rq_1');
    expect(await jobs.due(10)).toHaveLength(1);
    const [first, second] = await Promise.all([
      jobs.claim(key, 'replica-a', 30_000),
      jobs.claim(key, 'replica-b', 30_000),
    ]);
    expect([first?.lease_owner, second]).toEqual(['replica-a', null]);
    expect(await jobs.due(10)).toHaveLength(0);
    // replica-a is killed: once its lease lapses another replica takes the job.
    clock.advance(30_001);
    expect((await jobs.claim(key, 'replica-b', 30_000))?.lease_owner).toBe('replica-b');
  });

  test('a job settles once, whoever sees it finish', async () => {
    await jobs.insert(newJob('rq_2'));
    const key = jobKeyOf('ringdirect', 'rq_2');
    const outcome = {
      status: 'settled' as const,
      charges: [{ charge_id: 'ringdirect:rq_2', millicredits: 3_000, description: 'x' }],
      results: [],
    };
    const [a, b] = await Promise.all([jobs.settle(key, outcome, event('s1')), jobs.settle(key, outcome, event('s1'))]);
    expect([a === null, b === null].sort()).toEqual([false, true]);
    const settled = await jobs.get(key);
    expect(settled).toMatchObject({ status: 'settled', charged_millicredits: 3_000 });
    expect((settled as { _outbox?: unknown[] })._outbox).toHaveLength(1);
  });

  test('only the first callback with the right nonce wakes the job; others change nothing', async () => {
    await jobs.insert(newJob('rq_3'));
    expect(await jobs.firstCallback('ringdirect', nonceHashOf('forged'))).toBeNull();
    expect(await jobs.firstCallback('reachout', nonceHashOf('nonce-1'))).toBeNull();
    expect(await jobs.firstCallback('ringdirect', nonceHashOf('nonce-1'))).toMatchObject({ callback_seen: true });
    expect(await jobs.firstCallback('ringdirect', nonceHashOf('nonce-1'))).toBeNull();
  });

  test('a job is read only by its own workspace', async () => {
    await jobs.insert(newJob('rq_4'));
    expect(await jobs.find('ws_1', 'ringdirect', 'rq_4')).not.toBeNull();
    expect(await jobs.find('ws_2', 'ringdirect', 'rq_4')).toBeNull();
  });
});
