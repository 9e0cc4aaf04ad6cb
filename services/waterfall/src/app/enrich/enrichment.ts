import { errors, RdeError, settlementEvent, type Caller, type Clock, type KeyValue, type Logger } from '@rde/platform';
import type { billing } from '@rde/proto';
import { CHAINS, isCapability, type Capability, type Chain } from '../../domain/enrich/chains';
import { enrichDatasetIdOf, newEnrichRunId, replayKeyOf } from '../../domain/enrich/ids';
import { MAX_ROWS, rowsOf } from '../../domain/enrich/request';
import { subjectOf, type Row } from '../../domain/enrich/subject';
import {
  cappedWalk,
  isSpendingCapRefusal,
  spendingCapWarning,
  type CapRefusal,
} from '../../domain/enrich/spending-cap';
import { chargedOf, enrichedRow, startWalk, stepName, type RowWalk } from '../../domain/enrich/walk';
import type { WaterfallClients } from '../../clients';
import type { EnrichJobRepository } from '../../store/enrich-jobs';
import { callerOf } from './provider-jobs';
import type { EnrichRunDocument, EnrichRunRepository } from '../../store/enrich-runs';
import type { ProviderPort } from './providers';
import { worstCasePerRow } from './prices';
import { RowSink } from './row-sink';
import type { RowWalker } from './walk-rows';

export interface EnrichRequest {
  readonly capability: string;
  /** One row (a JSON object), or undefined. */
  readonly payload?: unknown;
  /** Up to 100 rows, or undefined; exclusive with payload. */
  readonly rows?: unknown;
  readonly dryRun: boolean;
}

export interface PendingJobView {
  readonly provider: string;
  readonly job_id: string;
  readonly fetch: string;
}

/** The `_meta` of an enrichment call, amounts in millicredits; each field present where it applies. */
export interface EnrichMeta {
  readonly charged?: number;
  readonly creditsCharged?: number;
  readonly balance?: number;
  readonly reserved?: number;
  readonly settled?: boolean;
  readonly runId?: string;
  readonly datasetId?: string;
  readonly rowCount?: number;
  readonly status?: string;
  readonly progress?: { readonly done: number; readonly total: number };
  readonly pollAfterS?: number;
  readonly replayed?: boolean;
  readonly pendingJobs?: readonly PendingJobView[];
  readonly wouldCharge?: number;
  readonly wouldCall?: string;
  readonly warnings?: readonly Record<string, unknown>[];
}

export interface EnrichResult {
  readonly result: Record<string, unknown>;
  readonly meta: EnrichMeta;
}

export interface EnrichmentDependencies {
  readonly walker: RowWalker;
  readonly runs: EnrichRunRepository;
  readonly jobs: EnrichJobRepository;
  readonly providers: ProviderPort;
  readonly clients: WaterfallClients;
  readonly replayKeys: KeyValue;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly holdTtlMs: number;
  /** Rule 7: how long an identical rows batch replays the first run (spec "Limits": 15 minutes). */
  readonly replayWindowMs: number;
  /** How long a rows call waits for its run before answering `running` (rule 6). */
  readonly detachMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Publishes a run's outbox now (the relay's poll is the safety net). */
  readonly publishRun: (runId: string) => void;
  /** This replica's name on the runs it walks, and how long its lease on one lasts unrenewed. */
  readonly owner: string;
  readonly leaseMs: number;
  /** Releases a run's hold when none of its provider jobs is open any more. */
  readonly releaseRunIfDone: (run: {
    run_id: string;
    workspace_id: string;
    user_id: string;
    session_id: string;
  }) => Promise<void>;
}

/** A run in progress in this process: its rows as they finish. */
interface LiveRun {
  readonly rows: Row[];
  readonly walks: RowWalk[];
  charged: number;
  finished: Promise<void>;
}

/**
 * An enrichment waterfall call (spec "Enrichment waterfalls"): bad input is refused before anything
 * is spent; an identical rows batch within 15 minutes is replayed at zero; otherwise the worst
 * case is held, the rows are persisted as a dataset and walked down the chain, each row written
 * as it finishes, and the run's settlement is written with its end.
 */
export class Enrichment {
  private readonly live = new Map<string, LiveRun>();

  constructor(private readonly deps: EnrichmentDependencies) {}

  async enrich(request: EnrichRequest, caller: Caller | undefined): Promise<EnrichResult> {
    if (!caller?.workspaceId) throw errors.unauthenticated();
    if (!isCapability(request.capability)) {
      throw errors.notFound(`unknown enrichment capability: ${request.capability}`);
    }
    const chain = CHAINS[request.capability];
    const rows = rowsOf(request);
    const worstPerRow = await worstCasePerRow(this.deps.providers, chain);
    if (request.dryRun) {
      return {
        result: { dry_run: true, capability: chain.capability, chain: chain.steps.map(stepName), rows: rows.length },
        meta: { wouldCharge: worstPerRow * rows.length, wouldCall: chain.steps.map(stepName).join(' → ') },
      };
    }
    const runId = newEnrichRunId();
    const replayKey = request.rows !== undefined ? replayKeyOf(caller.workspaceId, chain.capability, rows) : undefined;
    if (replayKey && !(await this.deps.replayKeys.setIfAbsent(replayKey, runId, this.deps.replayWindowMs))) {
      const first = await this.deps.replayKeys.get(replayKey);
      if (first) return this.replay(first, caller);
    }
    const { account, heldRows, refusal } = await this.reserve(
      runId,
      worstPerRow,
      rows.length,
      chain,
      caller,
      replayKey,
    );
    const held = worstPerRow * heldRows;
    const datasetId = enrichDatasetIdOf(runId);
    const subjects = rows.map(subjectOf);
    const firstWalk = (i: number) => (i < heldRows ? startWalk() : cappedWalk(chain));
    await this.deps.clients.dataset.createDataset(
      {
        datasetId,
        name: `${chain.capability} ${runId}`,
        rowsJson: Buffer.from(
          JSON.stringify(rows.map((row, i) => enrichedRow(chain, row, subjects[i]!, firstWalk(i)))),
        ),
        source: `enrich:${chain.capability}`,
        runId,
        sessionId: caller.sessionId,
      },
      { caller },
    );
    await this.deps.runs.start({
      _id: runId,
      workspace_id: caller.workspaceId,
      user_id: caller.userId,
      session_id: caller.sessionId,
      capability: chain.capability,
      dataset_id: datasetId,
      total: rows.length,
      reserved_millicredits: held,
      rows,
      ...(refusal && {
        capped_from: heldRows,
        warnings: [spendingCapWarning(chain, rows.length - heldRows, refusal)],
      }),
      lease_owner: this.deps.owner,
      lease_until: new Date(this.deps.clock.now() + this.deps.leaseMs),
    });
    const live = this.start({ runId, datasetId, caller, chain, rows, subjects, cappedFrom: heldRows });
    if (request.payload !== undefined) await live.finished;
    else await Promise.race([live.finished, this.deps.sleep(this.deps.detachMs)]);
    return this.view(runId, datasetId, caller, live, account, held);
  }

  /**
   * Holds the run's worst case, row by row (rule 9): billing's Reserve checks the caps and, when a
   * member or workspace spending cap refuses the whole run, holds the leading rows that fit. The
   * rest are capped rows (`skip`, `spending_cap_reached`, asked of no provider); when none fits,
   * every row is. Any other refusal (the balance, a session's cap) fails the call.
   */
  private async reserve(
    runId: string,
    perRow: number,
    rowCount: number,
    chain: Chain,
    caller: Caller,
    replayKey?: string,
  ): Promise<{ account?: billing.Account; heldRows: number; refusal?: CapRefusal }> {
    // Nothing runs without a hold: the same rows sent again must run, not replay a refusal.
    const forgetReplay = async () => {
      if (replayKey) await this.deps.replayKeys.delete(replayKey);
    };
    try {
      const reply = await this.deps.clients.billing.reserve(
        {
          holdId: runId,
          runId,
          amount: { millicredits: perRow * rowCount },
          unit: { millicredits: perRow },
          ttlMs: this.deps.holdTtlMs,
          description: `enrichment ${chain.capability}`,
        },
        { caller },
      );
      const held = reply.held?.millicredits ?? perRow * rowCount;
      const refusal =
        reply.capRefusalJson.length > 0 ? (JSON.parse(reply.capRefusalJson.toString('utf8')) as CapRefusal) : undefined;
      return { account: reply.account, heldRows: Math.floor(held / perRow), ...(refusal && { refusal }) };
    } catch (error) {
      await forgetReplay();
      if (error instanceof RdeError && error.httpStatus === 402 && isSpendingCapRefusal(error.body)) {
        // Not one row fits: all are capped, nothing is held; the answer still shows the balance.
        const { account } = await this.deps.clients.billing.getBalance({ recent: 1 }, { caller });
        return { account, heldRows: 0, refusal: error.body };
      }
      throw error;
    }
  }

  /** Walks the rows in the background; rows land in the dataset as they finish. Never rejects. */
  private start(run: {
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
      walks: run.rows.map((_, i) => firstWalk(i)),
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
    const heartbeat = setInterval(() => {
      void this.deps.runs
        .renew(runId, this.deps.owner, this.deps.leaseMs)
        .catch((error: unknown) => this.deps.logger.warn({ err: error, runId }, 'could not renew the run lease'));
    }, this.deps.leaseMs / 3);
    heartbeat.unref();
    const asOf = new Date(this.deps.clock.now()).toISOString().slice(0, 7);
    this.live.set(runId, live);
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
            live.walks[index] = walk;
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
      clearInterval(heartbeat);
      await this.finish(runId, caller, outcome).catch((error: unknown) =>
        this.deps.logger.error({ err: error, runId }, 'could not record the end of an enrichment run'),
      );
      setTimeout(() => this.live.delete(runId), 60_000).unref();
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
    // repeats its ids).
    const charges = [...new Map(stored.charges.map((charge) => [charge.charge_id, charge])).values()];
    const event = settlementEvent({
      settlementId: `${runId}:settlement:0`,
      description: `enrichment ${stored.capability}`,
      holdId: runId,
      runId,
      workspaceId: caller.workspaceId,
      userId: caller.userId,
      sessionId: caller.sessionId,
      charges,
      final: openJobs.length === 0,
      createdAtMs: this.deps.clock.now(),
    });
    const ended = await this.deps.runs.finish(
      runId,
      { ...outcome, openJobs: openJobs.map((job) => ({ provider: job.provider, job_id: job.jobId })) },
      event,
    );
    if (!ended) return;
    this.deps.publishRun(runId);
    // A job may have settled between the walk's end and this write: then nobody else releases.
    if (openJobs.length > 0) {
      await this.deps.releaseRunIfDone({
        run_id: runId,
        workspace_id: caller.workspaceId,
        user_id: caller.userId,
        session_id: caller.sessionId,
      });
    }
    await this.deps.clients.dataset.updateRows(
      { datasetId: stored.dataset_id, rows: [], enrichStatus: openJobs.length > 0 ? 'pending_jobs' : outcome.status },
      { caller },
    );
  }

  /**
   * Takes over the runs whose process died (their lease lapsed), one at a time: rows a settled job
   * of the run already answered get that answer, rows an open job still waits on are left to its
   * poller, and every other row the dataset does not show as finished is walked again (under the
   * same charge ids, so nothing is billed twice). Then the run ends as usual.
   */
  async recoverLapsed(): Promise<void> {
    for (let run = await this.deps.runs.claimLapsed(this.deps.owner, this.deps.leaseMs); run;) {
      await this.recover(run).catch((error: unknown) =>
        this.deps.logger.error({ err: error, runId: run!._id }, 'could not take over an enrichment run'),
      );
      run = await this.deps.runs.claimLapsed(this.deps.owner, this.deps.leaseMs);
    }
  }

  private async recover(run: EnrichRunDocument): Promise<void> {
    const caller = callerOf(run);
    const chain = CHAINS[run.capability as Capability];
    const shown = await this.datasetRows(run, caller);
    const jobs = await this.deps.jobs.ofRun(run._id);
    const waiting = new Set(
      jobs.filter((job) => job.status === 'pending').flatMap((job) => job.rows.map((r) => r.index)),
    );
    const answered = jobs
      .filter((job) => job.status === 'settled' && !job.handed_off)
      .flatMap((job) => job.results)
      .filter(({ index }) => !finishedRow(shown[index]));
    if (answered.length > 0) {
      await this.deps.runs.rowsDone(run._id, answered.length, []);
      await this.deps.clients.dataset.updateRows(
        {
          datasetId: run.dataset_id,
          rows: answered.map(({ index, row }) => ({ index, rowJson: Buffer.from(JSON.stringify(row)) })),
          enrichStatus: '',
        },
        { caller },
      );
    }
    const done = new Set(answered.map(({ index }) => index));
    const only = new Set(
      run.rows.flatMap((_, index) =>
        finishedRow(shown[index]) || waiting.has(index) || done.has(index) ? [] : [index],
      ),
    );
    this.deps.logger.warn({ runId: run._id, rows: only.size }, 'taking over an enrichment run whose process stopped');
    const live = this.start({
      runId: run._id,
      datasetId: run.dataset_id,
      caller,
      chain,
      rows: run.rows,
      subjects: run.rows.map(subjectOf),
      only,
    });
    await live.finished;
  }

  /** Rule 7: the first call's dataset and run, charged 0, no vendor called. */
  private async replay(firstRunId: string, caller: Caller): Promise<EnrichResult> {
    const first = await this.deps.runs.find(caller.workspaceId, firstRunId);
    if (!first) throw errors.notFound('the replayed run is gone');
    const results = first.status === 'running' ? [] : await this.datasetRows(first, caller);
    return {
      result: { results },
      meta: { ...(await this.runMeta(first)), charged: 0, creditsCharged: 0, replayed: true },
    };
  }

  private async datasetRows(run: EnrichRunDocument, caller: Caller): Promise<Row[]> {
    const page = await this.deps.clients.dataset.getRows(
      { datasetId: run.dataset_id, page: { offset: 0, limit: MAX_ROWS } },
      { caller },
    );
    return JSON.parse(page.rowsJson.toString('utf8')) as Row[];
  }

  private async runMeta(run: EnrichRunDocument): Promise<EnrichMeta> {
    const open = await this.deps.jobs.openOfRun(run._id);
    return {
      runId: run._id,
      datasetId: run.dataset_id,
      rowCount: run.total,
      status: run.status,
      progress: { done: run.done, total: run.total },
      settled: false,
      ...(run.status === 'running' && { pollAfterS: 2 }),
      pendingJobs: open.map((job) => pendingJobView(job.provider, job.job_id)),
      ...(run.warnings && { warnings: run.warnings }),
    };
  }

  /** The answer: the rows when the run ended, else the running handle; money provisional until billing applies it. */
  private async view(
    runId: string,
    datasetId: string,
    caller: Caller,
    live: LiveRun,
    account: billing.Account | undefined,
    held: number,
  ): Promise<EnrichResult> {
    const run = await this.deps.runs.find(caller.workspaceId, runId);
    const ended = run !== null && run.status !== 'running';
    const balance = account?.balance?.millicredits ?? 0;
    const reserved = account?.reserved?.millicredits ?? 0;
    const meta: EnrichMeta = {
      ...(run ? await this.runMeta(run) : { runId, datasetId }),
      charged: live.charged,
      creditsCharged: live.charged,
      balance: balance - (reserved - held) - live.charged,
      reserved,
      settled: false,
    };
    if (!ended) return { result: { results: [] }, meta };
    const single = live.rows.length === 1 ? live.rows[0]! : undefined;
    return {
      result: { results: live.rows, ...(single && { steps: single.steps, hit: single.hit }) },
      meta,
    };
  }
}

/** A dataset row whose walk ended: it has steps. */
function finishedRow(row: Row | undefined): boolean {
  return Array.isArray(row?.steps) && row.steps.length > 0;
}

export function pendingJobView(provider: string, jobId: string): PendingJobView {
  return { provider, job_id: jobId, fetch: `/enrich/jobs/${provider}/${jobId}` };
}
