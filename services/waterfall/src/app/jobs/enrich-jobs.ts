import { errors, type Caller, type Clock, type Logger, settlementEvent } from '@rde/platform';
import type { EnrichJobDocument, EnrichJobRepository } from '../../store/enrich-jobs';
import type { EnrichRunRepository } from '../../store/enrich-runs';
import { settlementPayerOf, type StoredCaller } from '../../domain/callers';
import { nonceHashOf } from '../../domain/enrich/ids';
import type { ProviderJobs } from './provider-jobs';

/**
 * Enrich jobs as the client sees them (owner-gated reads, free polls), vendor callbacks (the nonce
 * wakes one re-poll), and the release of a run's hold once its last job resolved.
 */
export class EnrichJobs {
  constructor(
    private readonly jobs: EnrichJobRepository,
    private readonly runs: EnrichRunRepository,
    private readonly providerJobs: () => ProviderJobs,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Publishes a run's end after its jobs' settlements (the hold is the run's); the relay's poll is the safety net. */
    private readonly publishRunAfterJobs: (runId: string) => void,
  ) {}

  /** The caller's job; another workspace's is 404. An open job no poller holds is polled once, free. */
  async get(provider: string, jobId: string, caller: Caller | undefined): Promise<Record<string, unknown>> {
    if (!caller?.workspaceId) throw errors.unauthenticated();
    let job = await this.jobs.find(caller.workspaceId, provider, jobId);
    if (!job) throw errors.notFound(`no enrich job ${provider}/${jobId} in this workspace`);
    if (job.status === 'pending' && job.handed_off) {
      await this.providerJobs().pollHandedOff(job._id);
      job = (await this.jobs.find(caller.workspaceId, provider, jobId)) ?? job;
    }
    return jobView(job);
  }

  /**
   * A vendor callback. The body is never read; an unknown, replayed or forged nonce changes
   * nothing, and only a job's first callback wakes one poll (which a handed-off job gets now; a job
   * still polled by its request is polled there anyway).
   */
  async wake(provider: string, nonce: string): Promise<void> {
    if (!nonce) return;
    const job = await this.jobs.firstCallback(provider, nonceHashOf(nonce));
    if (job?.handed_off) {
      void this.providerJobs()
        .pollHandedOff(job._id)
        .catch((error: unknown) => this.logger.warn({ err: error, job: job._id }, 'callback re-poll failed'));
    }
  }

  /**
   * A handed-off job settled: when no job of its run is open any more, the run's hold is released
   * (one guarded write; a second settler finds it done).
   */
  async releaseRunIfDone(run: StoredCaller & { run_id: string }) {
    const open = await this.jobs.openOfRun(run.run_id);
    if (open.length > 0) return;
    const event = settlementEvent({
      runId: run.run_id,
      settlementId: `${run.run_id}:settlement:release`,
      description: 'enrichment hold release',
      ...settlementPayerOf(run),
      charges: [],
      final: true,
      createdAtMs: this.clock.now(),
    });
    if (await this.runs.releaseHold(run.run_id, event)) this.publishRunAfterJobs(run.run_id);
  }
}

/** The enrich job record (spec "Enrich job"): status, and once settled what it charged and found. */
export function jobView(job: EnrichJobDocument): Record<string, unknown> {
  const settled = job.status === 'settled';
  const results = job.results.map(({ row }) => row);
  const only = results.length === 1 ? results[0] : undefined;
  return {
    provider: job.provider,
    job_id: job.job_id,
    capability: job.capability,
    status: job.status,
    run_id: job.run_id,
    dataset_id: job.dataset_id,
    rows: job.rows.length,
    ...(settled && {
      charged: job.charged_millicredits / 1000,
      ...(only && 'email' in only && { email: only.email }),
      result: only ?? results,
    }),
  };
}
