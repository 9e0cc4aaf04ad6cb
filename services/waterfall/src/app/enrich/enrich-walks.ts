import { distinctCharges, type Caller, type Clock, type Logger, type PaidRunKit, type RunLeases } from '@rde/platform';
import { storedCallerOf, type StoredCaller } from '../../domain/callers';
import type { Chain } from '../../domain/enrich/chains';
import { cappedWalk } from '../../domain/enrich/spending-cap';
import type { Row, subjectOf } from '../../domain/enrich/subject';
import { chargedOf, enrichedRow, startWalk } from '../../domain/enrich/walk';
import type { WaterfallClients } from '../../clients';
import type { EnrichJobRepository } from '../../store/enrich-jobs';
import type { EnrichRunDocument, EnrichRunRepository } from '../../store/enrich-runs';
import { RowSink } from './row-sink';
import type { RowWalker } from './walk-rows';

export interface EnrichWalkDependencies {
  readonly walker: RowWalker;
  readonly runs: EnrichRunRepository;
  readonly jobs: EnrichJobRepository;
  readonly clients: WaterfallClients;
  readonly kit: PaidRunKit;
  /** The lease this replica keeps on the runs it walks (take-over: `EnrichTakeOver`). */
  readonly leases: RunLeases<EnrichRunDocument>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly sleep: (ms: number) => Promise<void>;
  /** This replica's name on the runs it walks. */
  readonly owner: string;
  /** Releases a run's hold when none of its provider jobs is open any more. */
  readonly releaseRunIfDone: (run: StoredCaller & { run_id: string }) => Promise<void>;
}

/** A run in progress in this process: its rows as they finish. */
export interface LiveRun {
  readonly rows: Row[];
  charged: number;
  finished: Promise<void>;
}

/**
 * The background executor of an enrichment call: walks the rows under the run's lease, writes each
 * row as it finishes with its charges kept on the run, and ends the run with its settlement
 * through the paid-run kit.
 */
export class EnrichWalks {
  constructor(private readonly deps: EnrichWalkDependencies) {}

  /** Walks the rows in the background; rows land in the dataset as they finish. Never rejects. */
  start(run: {
    runId: string;
    datasetId: string;
    caller: Caller;
    chain: Chain;
    rows: Row[];
    subjects: ReturnType<typeof subjectOf>[];
    /** A run taken over: only these rows still need their walk. */
    only?: ReadonlySet<number>;
    /** Rule 9: rows from this index on were left out by a spending cap (already final). */
    cappedFrom?: number;
  }): LiveRun {
    const { runId, datasetId, caller, chain } = run;
    const cappedFrom = run.cappedFrom ?? run.rows.length;
    const firstWalk = (i: number) => (i < cappedFrom ? startWalk() : cappedWalk(chain));
    const only =
      run.only ?? (cappedFrom < run.rows.length ? new Set(Array.from({ length: cappedFrom }, (_, i) => i)) : undefined);
    const live: LiveRun = {
      rows: run.rows.map((row, i) => enrichedRow(chain, row, run.subjects[i]!, firstWalk(i))),
      charged: 0,
      finished: Promise.resolve(),
    };
    // Charges are kept with the run before the rows show in the dataset: a row shown is a row
    // billed, and a row a crash left unshown is walked again under the same charge ids.
    const sink = new RowSink(async (batch) => {
      await this.deps.runs.rowsDone(
        runId,
        batch.length,
        batch.flatMap((entry) => entry.charges),
      );
      await this.deps.clients.dataset.updateRows(
        {
          datasetId,
          rows: batch.map(({ index }) => ({ index, rowJson: Buffer.from(JSON.stringify(live.rows[index])) })),
          enrichStatus: 'running',
        },
        { caller },
      );
    }, this.deps.sleep);
    const stopHeartbeat = this.deps.leases.heartbeat(runId, this.deps.owner, (error) =>
      this.deps.logger.warn({ err: error, runId }, 'could not renew the run lease'),
    );
    const asOf = new Date(this.deps.clock.now()).toISOString().slice(0, 7);
    live.finished = (async () => {
      let outcome: { status: 'completed' | 'failed'; error?: string } = { status: 'completed' };
      try {
        await this.deps.walker.walk(
          {
            runId,
            caller,
            capability: chain.capability,
            datasetId,
            rows: run.rows,
            subjects: run.subjects,
            asOf,
            ...(only && { only }),
          },
          (index, walk, owed) => {
            live.rows[index] = enrichedRow(chain, run.rows[index]!, run.subjects[index]!, walk);
            live.charged +=
              chargedOf(walk) +
              owed.filter((c) => c.charge_id.includes(':verify:')).reduce((s, c) => s + c.millicredits, 0);
            sink.add({ index, charges: owed });
          },
        );
        await sink.close();
      } catch (error) {
        this.deps.logger.error({ err: error, runId }, 'enrichment run failed');
        outcome = { status: 'failed', error: String(error) };
      }
      stopHeartbeat();
      await this.finish(runId, caller, outcome).catch((error: unknown) =>
        this.deps.logger.error({ err: error, runId }, 'could not record the end of an enrichment run'),
      );
    })();
    return live;
  }

  /**
   * Writes the run's end with its settlement; the hold is released now unless a provider job of
   * the run is still open (its settlement and the release follow when it resolves).
   */
  private async finish(runId: string, caller: Caller, outcome: { status: 'completed' | 'failed'; error?: string }) {
    const stored = await this.deps.runs.find(caller.workspaceId, runId);
    if (!stored) return;
    // The run's open jobs, including any a process that died before this one left behind.
    const openJobs = (await this.deps.jobs.openOfRun(runId)).map((job) => ({
      provider: job.provider,
      jobId: job.job_id,
    }));
    // Every charge the run's rows caused, each id once (a row walked again after a takeover
    // repeats its ids); the hold stays while a provider job of the run is open.
    const ended = await this.deps.kit.finish(
      { runId, payer: caller, description: `enrichment ${stored.capability}` },
      { charges: distinctCharges(stored.charges), final: openJobs.length === 0 },
      (settlement) =>
        this.deps.runs.finish(
          runId,
          { ...outcome, openJobs: openJobs.map((job) => ({ provider: job.provider, job_id: job.jobId })) },
          settlement,
        ),
    );
    if (!ended) return;
    // A job may have settled between the walk's end and this write: then nobody else releases.
    if (openJobs.length > 0) {
      await this.deps.releaseRunIfDone({ run_id: runId, ...storedCallerOf(caller) });
    }
    await this.deps.clients.dataset.updateRows(
      { datasetId: stored.dataset_id, rows: [], enrichStatus: openJobs.length > 0 ? 'pending_jobs' : outcome.status },
      { caller },
    );
  }
}
