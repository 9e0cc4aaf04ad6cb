import {
  DuplicateKeyError,
  errors,
  httpError,
  isRunId,
  type Caller,
  type Clock,
  type CreditHolds,
  type KeyValue,
  type Logger,
} from '@rde/platform';
import { CHAINS } from '../../domain/enrich/chains';
import { enrichDatasetIdOf, enrichRunIdOf, newEnrichRunId } from '../../domain/enrich/ids';
import { runReplayKeyOf, sliceOf } from '../../domain/runs/plan';
import { runRequestOf } from '../../domain/runs/request';
import { isToolStep, runStepName, type RunStep } from '../../domain/runs/tool-steps';
import type { WaterfallClients } from '../../clients';
import type { ProviderPort } from '../../clients/providers';
import type { DatasetRunDocument, DatasetRunRepository } from '../../store/dataset-runs';
import type { RunChunkRepository } from '../../store/run-chunks';
import { worstCasePerRow } from '../enrich';
import type { CallRuns } from './call-runs';
import { checkRun } from './run-checks';
import { holdRun } from './run-hold';
import { runInputOf } from './run-input';
import { launchRun } from './run-launch';
import { createRunOutput, dropRunOutput } from './run-output';
import { runView, type RunView } from './run-view';
import { toolPricesOf } from './tool-prices';

export interface EnrichRunsOptions {
  readonly chunkRows: number;
  /** How long a `detach` call waits for its run (spec: about 20 s). */
  readonly detachMs: number;
  /** How long a blocking call waits (under the gateway's ~100 s close) before answering the handle. */
  readonly blockMs: number;
  /** Dataset runs one workspace may have running at once (decision 0033). */
  readonly workspaceRunLimit: number;
  /** How long a `replay` key names its first run (the same window as single enrichments). */
  readonly replayWindowMs: number;
}

export interface EnrichRunsDependencies {
  readonly runs: DatasetRunRepository;
  readonly chunks: RunChunkRepository;
  /** The runs of enrichment calls over rows, polled at the same route. */
  readonly callRuns: CallRuns;
  readonly providers: ProviderPort;
  readonly clients: WaterfallClients;
  /** The run's one hold (the platform's paid-run kit). */
  readonly holds: CreditHolds;
  readonly replayKeys: KeyValue;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly sleep: (ms: number) => Promise<void>;
  /** Publishes a run's outbox (its chunks' messages, its settlement) now. */
  readonly publishRun: (runId: string) => void;
  readonly options: EnrichRunsOptions;
}

/**
 * Dataset enrichment runs (spec "Dataset enrichment runs", decisions 0031–0033): bad input is
 * refused before anything is read or spent; the no-spend checks price and plan without a hold or a
 * vendor call; a run holds what the balance covers of the worst case (402 when not one row), is cut
 * into chunks that any replica works, and answers its summary, never rows.
 */
export class EnrichRuns {
  constructor(private readonly deps: EnrichRunsDependencies) {}

  /**
   * Starts a run. `callerRunId` (a workflow step item's call id, or '') names the run: a repeat of
   * the start answers that run as it stands instead of holding and billing a second one.
   */
  async start(body: Record<string, unknown>, caller: Caller | undefined, callerRunId = ''): Promise<RunView> {
    if (!caller?.workspaceId) throw errors.unauthenticated();
    if (callerRunId && !isRunId(callerRunId)) {
      throw errors.badRequest({ detail: 'run_id must be run_ followed by 24 hexadecimal digits' });
    }
    const named = callerRunId ? enrichRunIdOf(caller.workspaceId, callerRunId) : undefined;
    const earlier = named ? await this.deps.runs.find(caller.workspaceId, named) : null;
    if (earlier) return this.view(earlier);
    const request = runRequestOf(body);
    const who: Caller = request.sessionId ? { ...caller, sessionId: request.sessionId } : caller;
    const toolPrices = await toolPricesOf(this.deps.clients.catalog, request, who);
    const input = await runInputOf(this.deps.clients.dataset, request, who);
    const slice = sliceOf(request.range, input.count);
    const perStep = await Promise.all(
      request.steps.map((step) =>
        isToolStep(step) ? toolPrices.get(runStepName(step))! : worstCasePerRow(this.deps.providers, CHAINS[step]),
      ),
    );
    const names = request.steps.map(runStepName);
    const worstPerRow = perStep.reduce((sum, price) => sum + price, 0);
    const inRange = slice.end - slice.start;
    if (request.mode !== 'run') return checkRun(this.deps.clients.billing, request, input, slice, perStep, who);

    const runId = named ?? newEnrichRunId();
    const replayKey = runReplayKeyOf(who.workspaceId, input.hash, request.steps.map(stepKeyOf), slice);
    if (!(await this.deps.replayKeys.setIfAbsent(replayKey, runId, this.deps.options.replayWindowMs))) {
      const first = await this.deps.replayKeys.get(replayKey);
      const run = first ? await this.deps.runs.find(who.workspaceId, first) : null;
      if (run) return this.view(run, { replayed: true });
    }
    const datasetId = request.inPlace ? request.input! : enrichDatasetIdOf(runId);
    let covered: number;
    try {
      await this.withinRunLimit(who);
      // The output before the hold: a dataset quota's 409 then leaves no credits held.
      if (!request.inPlace) await createRunOutput(this.deps.clients.dataset, request, { datasetId, runId, names }, who);
      const { holds, logger } = this.deps;
      const holding = { holds, subscriptions: this.deps.clients.subscriptions, logger };
      covered = await holdRun(holding, { runId, worstPerRow, inRange, names }, who).catch(async (error: unknown) => {
        if (!request.inPlace) await dropRunOutput(this.deps.clients.dataset, logger, { datasetId, runId }, who);
        throw error;
      });
    } catch (error) {
      // Nothing ran: the same request sent again must run, not reattach to a refusal.
      await this.deps.replayKeys.delete(replayKey);
      throw error;
    }
    const launched = await launchRun(this.launching(), {
      runId,
      datasetId,
      request,
      rowCount: input.count,
      slice,
      worstPerRow,
      covered,
      replayKey,
      caller: who,
    }).then(
      () => true,
      (error: unknown) => {
        // A repeat of a named start launched it first (same chunk and run ids, same hold): join it.
        if (named && error instanceof DuplicateKeyError) return false;
        throw error;
      },
    );
    if (!launched) {
      const first = await this.waitFor(runId, who, 0);
      if (!first) throw errors.conflict({ detail: `run ${runId} is being started by another call; retry` });
      return this.view(first);
    }
    const run = await this.waitFor(runId, who, request.detach ? this.deps.options.detachMs : this.deps.options.blockMs);
    return this.view(run!);
  }

  /** A dataset run, or the run of an enrichment call over rows (the same record; spec States). */
  async get(runId: string, caller: Caller | undefined): Promise<RunView> {
    if (!caller?.workspaceId) throw errors.unauthenticated();
    const run = await this.deps.runs.find(caller.workspaceId, runId);
    if (run) return this.view(run, { sample: true });
    const call = await this.deps.callRuns.view(caller.workspaceId, runId);
    if (!call) throw errors.notFound(`no enrich run ${runId} in this workspace`);
    return call;
  }

  /** Stops a running run (decision 0033): chunks not admitted yet walk nothing; the rest finish and bill. */
  async cancel(runId: string, caller: Caller | undefined): Promise<RunView> {
    await this.found(runId, caller);
    await this.deps.runs.cancel(caller!.workspaceId, runId);
    return this.view(await this.found(runId, caller));
  }

  private async found(runId: string, caller: Caller | undefined): Promise<DatasetRunDocument> {
    if (!caller?.workspaceId) throw errors.unauthenticated();
    const run = await this.deps.runs.find(caller.workspaceId, runId);
    if (!run) throw errors.notFound(`no enrich run ${runId} in this workspace`);
    return run;
  }

  /** Decision 0033: a workspace's running runs are bounded (429 `too_many_runs`). */
  private async withinRunLimit(caller: Caller): Promise<void> {
    const running = await this.deps.runs.running(caller.workspaceId);
    const limit = this.deps.options.workspaceRunLimit;
    if (running >= limit) {
      throw httpError(429, {
        error: 'too_many_runs',
        detail: `This workspace already has ${running} enrich runs running (at most ${limit}); wait for one to end or cancel one`,
        running,
        limit,
      });
    }
  }

  /** Waits until the run ends or `ms` pass, then reads it. */
  private async waitFor(runId: string, caller: Caller, ms: number): Promise<DatasetRunDocument | null> {
    const deadline = this.deps.clock.now() + ms;
    let run = await this.deps.runs.find(caller.workspaceId, runId);
    while (run?.status === 'running' && this.deps.clock.now() < deadline) {
      await this.deps.sleep(Math.min(250, Math.max(0, deadline - this.deps.clock.now())));
      run = await this.deps.runs.find(caller.workspaceId, runId);
    }
    return run;
  }

  private launching() {
    const { runs, chunks, clock, holds, publishRun, options } = this.deps;
    return { runs, chunks, clock, holdTtlMs: holds.ttlMs, chunkRows: options.chunkRows, publishRun };
  }

  private async view(run: DatasetRunDocument, options: { replayed?: boolean; sample?: boolean } = {}) {
    return runView(run, await this.deps.chunks.ofRun(run._id), this.deps.clients.dataset, options);
  }
}

/** A step as the replay key sees it: a tool step's column mapping is part of what was asked. */
function stepKeyOf(step: RunStep): string {
  return isToolStep(step) ? JSON.stringify(step) : step;
}
