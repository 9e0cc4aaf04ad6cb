import { Caller, chargeIdOf, Clock, Logger, settlementEvent } from '@rde/platform';
import { CHAINS, valueAt, type Capability, type ChainStep } from '../../domain/enrich/chains';
import { newNonce } from '../../domain/enrich/ids';
import { callerOf, settlementPayerOf, storedCallerOf } from '../../domain/callers';
import { subjectOf as subjectOfRow } from '../../domain/enrich/subject';
import { miss, type Verdict } from '../../domain/enrich/verdicts';
import { afterVerdict, correlate, enrichedRow, stepName, type Resume, type RowWalk } from '../../domain/enrich/walk';
import type { RunCharge } from '../../store/runs';
import type { DatasetClient } from '../../clients';
import { jobKeyOf, type EnrichJobDocument, type EnrichJobRepository, type JobRowResult } from '../../store/enrich-jobs';
import { judge, type JobOutcome, type JobRowInput, type JobRun, type ProviderJobPort } from '../enrich';
import type { catalog } from '@rde/proto';
import type { JsonObject, ProviderPort } from '../../clients/providers';

export interface ProviderJobsOptions {
  readonly pollBudgetMs: number;
  readonly pollIntervalMs: number;
  readonly leaseMs: number;
  /** How long an open job is polled before it is given up (`expired`, nothing charged). */
  readonly jobLifetimeMs: number;
  /** This replica's name on the leases it takes. */
  readonly owner: string;
  /** The public callback URL for a job's nonce, or undefined when vendors cannot reach us. */
  readonly callbackUrl: (provider: string, nonce: string) => string | undefined;
  readonly sleep: (ms: number) => Promise<void>;
  /** Publishes a document's outbox now (the relay's poll is the safety net). */
  readonly publish: (jobKey: string) => void;
  /** A handed-off job settled: the run may release its hold once no job of it is open. */
  readonly onHandedOffSettled: (job: EnrichJobDocument) => Promise<void>;
}

/**
 * Provider jobs (rule 8): submitted, persisted with a hashed callback nonce, polled under a lease
 * within the poll budget, and, if still open then, handed off to whichever replica's poller takes
 * the lease next. Settling is one guarded update, so a job is billed once.
 */
export class ProviderJobs implements ProviderJobPort {
  constructor(
    private readonly providers: ProviderPort,
    private readonly jobs: EnrichJobRepository,
    private readonly dataset: DatasetClient,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: ProviderJobsOptions,
  ) {}

  /** Submits one job for the rows (one row, or a batch) and polls it within the budget. */
  async run(
    run: JobRun,
    step: ChainStep,
    shape: catalog.JobDeclaration,
    price: number,
    rows: readonly JobRowInput[],
  ): Promise<JobOutcome> {
    const { nonce, hash } = newNonce();
    const callbackUrl = this.options.callbackUrl(step.tool, nonce);
    const payload: JsonObject = shape.batch
      ? {
          [shape.batch.itemsParameter]: rows.map((row) => ({
            [shape.batch!.correlationField]: row.ref,
            ...row.input,
          })),
        }
      : { ...rows[0]!.input };
    if (callbackUrl) payload[shape.callbackParameter] = callbackUrl;
    const submitted = await this.providers.invoke({ tool: step.tool, method: step.method, payload }, run.caller);
    const jobId = submitted.ok ? valueAt(submitted.answer, [shape.idField]) : undefined;
    if (!submitted.ok || typeof jobId !== 'string') {
      return { kind: 'failed', verdict: miss('skip', submitted.ok ? 'bad_response' : submitted.reason) };
    }
    const now = this.clock.now();
    const key = jobKeyOf(step.tool, jobId);
    await this.jobs.insert({
      provider: step.tool,
      job_id: jobId,
      ...storedCallerOf(run.caller),
      run_id: run.runId,
      dataset_id: run.datasetId,
      capability: run.capability,
      step_index: run.stepIndex,
      hold_id: run.runId,
      price_millicredits: price,
      rows: rows.map((row) => ({
        index: row.index,
        ...(row.ref !== undefined && { ref: row.ref }),
        row: row.row,
        walk: row.walk as unknown as Record<string, unknown>,
      })),
      nonce_hash: hash,
      lease_owner: this.options.owner,
      lease_until: new Date(now + this.options.pollBudgetMs + this.options.leaseMs),
      next_poll_at: new Date(now + this.options.pollIntervalMs),
      expires_at: new Date(now + this.options.jobLifetimeMs),
    });
    const deadline = now + this.options.pollBudgetMs;
    while (this.clock.now() < deadline) {
      await this.options.sleep(Math.min(this.options.pollIntervalMs, Math.max(0, deadline - this.clock.now())));
      const settled = await this.pollAndSettle(key, run.caller, false);
      if (settled) return { kind: 'settled', verdicts: settled };
    }
    const resume: Resume = { tool: 'enrich_jobs', method: step.tool, id_arg: 'job_id' };
    await this.jobs.release(key, this.options.owner, new Date(this.clock.now()), true);
    return { kind: 'open', jobId, resume };
  }

  /**
   * One free poll of a job under its lease, for the background poller, a callback or a client's
   * resume: settles it when the vendor says done, expires it past its lifetime. False when the
   * lease is someone else's or the job is no longer open.
   */
  async pollHandedOff(key: string): Promise<boolean> {
    const job = await this.jobs.claim(key, this.options.owner, this.options.leaseMs);
    if (!job) return false;
    const caller = callerOf(job);
    try {
      const settled = await this.pollAndSettle(key, caller, true, job);
      if (settled) return true;
      if (this.clock.now() >= job.expires_at.getTime()) {
        await this.settle(job, { status: 'expired', charges: [], results: [] }, true);
        return true;
      }
      await this.jobs.release(key, this.options.owner, new Date(this.clock.now() + this.options.pollIntervalMs));
    } catch (error) {
      this.logger.warn({ err: error, job: key }, 'provider job poll failed; the lease lapses and another poll retries');
    }
    return false;
  }

  /**
   * Polls once; when done, judges every row and settles. A job polled outside its request (handed
   * off, or its request's process gone) also writes its rows into the dataset first.
   */
  private async pollAndSettle(
    key: string,
    caller: Caller,
    outsideRequest: boolean,
    known?: EnrichJobDocument,
  ): Promise<Map<number, Verdict> | undefined> {
    const job = known ?? (await this.jobs.get(key));
    if (!job || job.status !== 'pending') return undefined;
    const chain = CHAINS[job.capability as Capability];
    const step = chain.steps[job.step_index]!;
    const shape = (await this.providers.contract(step.tool, step.method)).job!;
    const polled = await this.providers.invoke(
      { tool: step.tool, method: shape.poll, payload: { [shape.idField]: job.job_id } },
      caller,
    );
    if (!polled.ok || valueAt(polled.answer, shape.statePath) !== shape.doneState) return undefined;
    const verdicts = await this.verdictsOf(job, step, shape, polled.answer);
    const charges: RunCharge[] = [];
    const results: JobRowResult[] = [];
    for (const row of job.rows) {
      const verdict = verdicts.get(row.index)!;
      if (verdict.kind === 'hit') {
        charges.push({
          // The run's row and step, as a synchronous step's hit: a job submitted again for the same
          // rows (a chunk walked again after a failure) settles into the same ledger rows, once.
          charge_id: chargeIdOf(job.run_id, row.index, stepName(step)),
          millicredits: job.price_millicredits,
          description: `${job.capability} ${job.provider} job`,
        });
      }
      const walk = {
        ...afterVerdict(chain, row.walk as unknown as RowWalk, verdict, job.price_millicredits),
        done: true,
      };
      results.push({ index: row.index, row: enrichedRow(chain, row.row, subjectOfRow(row.row), withJobId(walk, job)) });
    }
    // A handed-off job's rows were left `still_enriching` in the dataset: the result replaces them
    // before the settlement is written, so a settled job always has its rows in place.
    if (outsideRequest) {
      await this.dataset.updateRows(
        {
          datasetId: job.dataset_id,
          rows: results.map(({ index, row }) => ({ index, rowJson: Buffer.from(JSON.stringify(row)) })),
          enrichStatus: '',
        },
        { caller },
      );
    }
    const settled = await this.settle(job, { status: 'settled', charges, results }, outsideRequest);
    return settled ? verdicts : undefined;
  }

  private async verdictsOf(job: EnrichJobDocument, step: ChainStep, shape: catalog.JobDeclaration, answer: JsonObject) {
    const chain = CHAINS[job.capability as Capability];
    const asOf = new Date(this.clock.now()).toISOString().slice(0, 7);
    const verdicts = new Map<number, Verdict>();
    const entries = shape.batch
      ? correlate(
          (valueAt(answer, shape.batch.resultsPath) as unknown[] | undefined) ?? [],
          shape.batch.correlationField,
          new Set(job.rows.map((row) => row.ref!)),
        )
      : undefined;
    for (const row of job.rows) {
      const entry = entries ? entries.get(row.ref!) : answer;
      const verdict =
        entry && typeof entry === 'object'
          ? await judge(chain, step, subjectOfRow(row.row), entry as JsonObject, { asOf })
          : miss('no_result');
      verdicts.set(row.index, verdict);
    }
    return verdicts;
  }

  /** The one guarded settling write; a job another settler already settled is left as it is. */
  private async settle(
    job: EnrichJobDocument,
    outcome: { status: 'settled' | 'expired'; charges: RunCharge[]; results: JobRowResult[] },
    outsideRequest: boolean,
  ): Promise<boolean> {
    const event = settlementEvent({
      settlementId: `${job._id}:settlement`,
      description: `${job.capability} ${job.provider} job`,
      holdId: job.hold_id,
      runId: job.run_id,
      ...settlementPayerOf(job),
      charges: outcome.charges,
      final: false,
      createdAtMs: this.clock.now(),
    });
    const settled = await this.jobs.settle(job._id, outcome, event);
    if (!settled) return false;
    this.options.publish(job._id);
    if (outsideRequest) await this.options.onHandedOffSettled(settled);
    return true;
  }
}

/** A settled job's step keeps its job id, so the row says which job answered it. */
function withJobId(walk: RowWalk, job: EnrichJobDocument): RowWalk {
  const steps = walk.steps.map((step, i) => (i === walk.steps.length - 1 ? { ...step, job_id: job.job_id } : step));
  return { ...walk, steps };
}
