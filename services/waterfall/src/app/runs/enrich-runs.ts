import type { Hash } from 'node:crypto';
import {
  errors,
  httpError,
  RdeError,
  type ValidationIssue,
  type Caller,
  type Clock,
  type CreditHolds,
  type HoldRefusal,
  type KeyValue,
  type Logger,
  type NewOutboxEvent,
} from '@rde/platform';
import { topics, waterfallEvents } from '@rde/proto';
import { CHAINS, inputFor } from '../../domain/enrich/chains';
import { enrichDatasetIdOf, newEnrichRunId } from '../../domain/enrich/ids';
import { subjectOf, type Row } from '../../domain/enrich/subject';
import { stepName } from '../../domain/enrich/walk';
import {
  chunkIdOf,
  chunksOf,
  hashRows,
  newRowsHash,
  partialBudgetWarning,
  rowsCovered,
  runReplayKeyOf,
  sliceOf,
  type Slice,
} from '../../domain/runs/plan';
import { runRequestOf, type RunRequest } from '../../domain/runs/request';
import { isToolStep, runStepName, toolArgsOf, type RunStep, type ToolStep } from '../../domain/runs/tool-steps';
import type { WaterfallClients } from '../../clients';
import type { DatasetRunDocument, DatasetRunRepository } from '../../store/dataset-runs';
import type { RunChunkDocument, RunChunkRepository } from '../../store/run-chunks';
import { worstCasePerRow } from '../enrich/prices';
import type { ProviderPort } from '../enrich/providers';
import type { CallRuns } from './call-runs';
import { runView, type RunView } from './run-view';

/** Rows read from an input dataset per GetRows page (the dataset service's largest page). */
const READ_PAGE = 1_000;
/**
 * How long the copy of an input dataset into a new one may take: a 50,000-row run started in
 * 14 s, copy included, on the test MongoDB-wire server (test/bench/runs-large.bench.ts), so the
 * default RPC deadline (10 s) is too short for the largest datasets.
 */
const COPY_DEADLINE_MS = 60_000;
/** Rows of the range a `preview` resolves the inputs of. */
const PREVIEW_ROWS = 3;

/** What a run reads of its input before it starts (never every row at once). */
interface RunInput {
  count: number;
  /** The rows' hash so far (rule 4's key). */
  readonly hash: Hash;
  /** Rows from the range's start on, as many as a preview shows. */
  readonly head: Row[];
}

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

  async start(body: Record<string, unknown>, caller: Caller | undefined): Promise<RunView> {
    if (!caller?.workspaceId) throw errors.unauthenticated();
    const request = runRequestOf(body);
    const who: Caller = request.sessionId ? { ...caller, sessionId: request.sessionId } : caller;
    const toolPrices = await this.toolPricesOf(request, who);
    const input = await this.inputOf(request, who);
    const slice = sliceOf(request.range, input.count);
    const perStep = await Promise.all(
      request.steps.map((step) =>
        isToolStep(step) ? toolPrices.get(runStepName(step))! : worstCasePerRow(this.deps.providers, CHAINS[step]),
      ),
    );
    const names = request.steps.map(runStepName);
    const worstPerRow = perStep.reduce((sum, price) => sum + price, 0);
    const inRange = slice.end - slice.start;
    if (request.mode !== 'run') return this.check(request, input, slice, perStep, who);

    const runId = newEnrichRunId();
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
      if (!request.inPlace) await this.createOutput(request, datasetId, runId, names, who);
      covered = await this.hold(runId, worstPerRow, inRange, names, who).catch(async (error: unknown) => {
        if (!request.inPlace) await this.dropOutput(datasetId, runId, who);
        throw error;
      });
    } catch (error) {
      // Nothing ran: the same request sent again must run, not reattach to a refusal.
      await this.deps.replayKeys.delete(replayKey);
      throw error;
    }
    await this.launch({
      runId,
      datasetId,
      request,
      rowCount: input.count,
      slice,
      worstPerRow,
      covered,
      replayKey,
      caller: who,
    });
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

  /**
   * The new dataset a run writes: a copy of the input dataset made inside the dataset service (no
   * message carries its rows, whatever their size), or the input_rows as sent (they came in one
   * message, so they fit in one).
   */
  private async createOutput(request: RunRequest, datasetId: string, runId: string, names: string[], caller: Caller) {
    const copyOf = request.inputRows ? '' : request.input!;
    await this.deps.clients.dataset.createDataset(
      {
        datasetId,
        name: request.outputName ?? `enrich run ${names.join('+')} ${runId}`,
        rowsJson: copyOf ? Buffer.alloc(0) : Buffer.from(JSON.stringify(request.inputRows)),
        source: `enrich:run:${names.join('+')}`,
        runId,
        sessionId: caller.sessionId,
        copyOfDatasetId: copyOf,
      },
      { caller, deadlineMs: COPY_DEADLINE_MS },
    );
  }

  /** Deletes the output of a run refused its hold; one left behind is only an unused dataset. */
  private async dropOutput(datasetId: string, runId: string, caller: Caller): Promise<void> {
    await this.deps.clients.dataset
      .deleteDataset({ datasetId }, { caller })
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error, runId }, 'could not delete a refused run’s output'),
      );
  }

  /**
   * What a run needs of its input, read page by page and never held whole: the row count, the
   * rows' hash (rule 4), and the rows a preview shows from the range's start. A dataset not of the
   * workspace is the dataset service's 404.
   */
  private async inputOf(request: RunRequest, caller: Caller): Promise<RunInput> {
    const from = request.range?.start ?? 0;
    const headOf = (rows: readonly Row[], offset: number) =>
      rows.slice(Math.max(0, from - offset), Math.max(0, from + PREVIEW_ROWS - offset));
    if (request.inputRows) {
      const rows = request.inputRows;
      return { count: rows.length, hash: hashRows(newRowsHash(), rows), head: headOf(rows, 0) };
    }
    const input: RunInput = { count: 0, hash: newRowsHash(), head: [] };
    for (let total = Infinity; input.count < total;) {
      const page = await this.deps.clients.dataset.getRows(
        { datasetId: request.input!, page: { offset: input.count, limit: READ_PAGE } },
        { caller },
      );
      total = Number(page.page?.total ?? 0);
      const batch = JSON.parse(page.rowsJson.toString('utf8')) as Row[];
      if (batch.length === 0) break;
      hashRows(input.hash, batch);
      input.head.push(...headOf(batch, input.count));
      input.count += batch.length;
    }
    return input;
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

  /**
   * Rule 2: holds the worst case of the rows the available credits cover. Not one row covered is
   * billing's own 402 (Reserve of one row's worst case, refused); caps refuse the same way.
   */
  private async hold(runId: string, worstPerRow: number, inRange: number, names: string[], caller: Caller) {
    if (inRange === 0 || worstPerRow === 0) return inRange;
    const { holds } = this.deps;
    const { available } = await holds.account(caller);
    const covered = Math.max(1, rowsCovered(available, worstPerRow, inRange));
    const outcome = await holds.reserve({
      runId,
      payer: caller,
      amount: covered * worstPerRow,
      description: `enrich run ${names.join('+')}`,
    });
    if ('refused' in outcome) throw await this.withCheckout(outcome.refused, worstPerRow * inRange - available, caller);
    return covered;
  }

  /**
   * Rule 2's 402 for want of credits carries `checkout_url` when payments are configured (decision
   * 0046): billing's page buying what the whole run needs beyond the balance. A cap's refusal does
   * not (credits would not lift it), and a page that cannot be had leaves the 402 as billing gave it.
   */
  private async withCheckout(refusal: HoldRefusal, needed: number, caller: Caller): Promise<RdeError> {
    const { error } = refusal;
    if (refusal.reason !== 'insufficient_credits') return error;
    try {
      const { url } = await this.deps.clients.subscriptions.shortfallCheckout(
        { needed: { millicredits: needed } },
        { caller },
      );
      return url ? httpError(402, { ...error.body, checkout_url: url }) : error;
    } catch (lookup) {
      this.deps.logger.warn({ err: lookup }, 'no checkout page for a run refused for want of credits');
      return error;
    }
  }

  /** The run and its chunks: chunks first, so a chunk message never names a chunk not yet written. */
  private async launch(run: {
    runId: string;
    datasetId: string;
    request: RunRequest;
    rowCount: number;
    slice: Slice;
    worstPerRow: number;
    covered: number;
    replayKey: string;
    caller: Caller;
  }): Promise<void> {
    const { runId, caller } = run;
    const chunks = chunksOf(run.slice, this.deps.options.chunkRows);
    const lapsed = new Date(0);
    await this.deps.chunks.insert(
      chunks.map((chunk, index): RunChunkDocument => ({
        _id: chunkIdOf(runId, index),
        run_id: runId,
        workspace_id: caller.workspaceId,
        chunk: index,
        start: chunk.start,
        end: chunk.end,
        status: 'pending',
        lease_owner: '',
        lease_until: lapsed,
      })),
    );
    const events: NewOutboxEvent[] = chunks.map((_, index) => ({
      id: chunkIdOf(runId, index),
      topic: topics.ENRICH_RUN_CHUNKS,
      key: chunkIdOf(runId, index),
      value: waterfallEvents.EnrichRunChunk.encode({ runId, chunk: index, workspaceId: caller.workspaceId }).finish(),
    }));
    await this.deps.runs.start(
      {
        _id: runId,
        kind: 'dataset',
        workspace_id: caller.workspaceId,
        user_id: caller.userId,
        session_id: caller.sessionId,
        capability: run.request.steps.map(runStepName).join('+'),
        steps: run.request.steps.map(runStepName),
        tool_steps: run.request.steps.filter(isToolStep),
        dataset_id: run.datasetId,
        input_dataset_id: run.request.input ?? '',
        in_place: run.request.inPlace,
        output_name: run.request.outputName ?? '',
        row_total: run.rowCount,
        range_start: run.slice.start,
        range_end: run.slice.end,
        total: run.slice.end - run.slice.start,
        worst_per_row_millicredits: run.worstPerRow,
        rows_covered: run.covered,
        reserved_millicredits: run.covered * run.worstPerRow,
        budget_left: run.covered * run.worstPerRow,
        hold_renew_after: new Date(this.deps.clock.now() + this.deps.holds.ttlMs / 3),
        chunk_count: chunks.length,
        rows: [],
        lease_owner: '',
        lease_until: lapsed,
        replay_key: run.replayKey,
      },
      events,
    );
    this.deps.publishRun(runId);
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

  private async view(run: DatasetRunDocument, options: { replayed?: boolean; sample?: boolean } = {}) {
    return runView(run, await this.deps.chunks.ofRun(run._id), this.deps.clients.dataset, options);
  }

  /**
   * Each tool step checked against the catalog's declaration of its method (an unknown one, a
   * required parameter not mapped, a parameter it does not declare: one 422 item each), and its
   * price per call, the step's worst case per row. Runs before anything is read or held.
   */
  private async toolPricesOf(request: RunRequest, caller: Caller): Promise<Map<string, number>> {
    const prices = new Map<string, number>();
    const issues: ValidationIssue[] = [];
    for (const [index, step] of request.steps.entries()) {
      if (!isToolStep(step)) continue;
      const refuse = (msg: string) =>
        issues.push({ loc: ['body', request.stepsKey, index], msg, type: 'value_error.step' });
      const declared = await this.declarationOf(step, caller);
      if (!declared) {
        refuse(`${runStepName(step)} is not a method of the catalog (GET /tools lists them)`);
        continue;
      }
      const inputs = new Set(declared.inputs.map((input) => input.name));
      for (const input of declared.inputs) {
        if (input.required && step.args[input.name] === undefined) {
          refuse(`${runStepName(step)} needs args.${input.name}: the row column it is read from`);
        }
      }
      for (const param of Object.keys(step.args)) {
        if (!inputs.has(param)) refuse(`${runStepName(step)} has no parameter ${param}`);
      }
      prices.set(runStepName(step), Number(declared.cost?.amount?.millicredits ?? 0));
    }
    if (issues.length > 0) throw errors.validation(issues);
    return prices;
  }

  private async declarationOf(step: ToolStep, caller: Caller) {
    try {
      const { method } = await this.deps.clients.catalog.getMethod(
        { tool: step.tool, method: step.method },
        { caller },
      );
      return method;
    } catch (error) {
      if (error instanceof RdeError && error.httpStatus === 404) return undefined;
      throw error;
    }
  }

  /** `estimate`, `dry_run`, `preview`: the price, the plan per step, the first rows' inputs; no hold, no vendor. */
  private async check(request: RunRequest, input: RunInput, slice: Slice, perStep: number[], caller: Caller) {
    const inRange = slice.end - slice.start;
    const worstPerRow = perStep.reduce((sum, price) => sum + price, 0);
    const { account } = await this.deps.clients.billing.getBalance({ recent: 0 }, { caller });
    const available = account?.available?.millicredits ?? 0;
    const covered = rowsCovered(available, worstPerRow, inRange);
    const credits = (millicredits: number) => millicredits / 1000;
    const plan = request.steps.map((step, i) => ({
      step: runStepName(step),
      chain: chainOf(step),
      rows: inRange,
      would_charge_credits_max: credits(perStep[i]! * inRange),
    }));
    const preview = input.head.slice(0, slice.end - slice.start).map((row, i) => ({
      row: slice.start + i,
      steps: Object.fromEntries(request.steps.map((step) => [runStepName(step), resolvedInputs(step, row)])),
    }));
    return {
      status: request.mode,
      rows: input.count,
      range: `${slice.start}:${slice.end}`,
      in_range: inRange,
      steps: request.steps.map(runStepName),
      ...(request.mode === 'dry_run' && { plan }),
      ...(request.mode === 'preview' && { preview }),
      _meta: {
        credits_charged: 0,
        would_charge_credits: credits(worstPerRow * inRange),
        would_call: request.steps.flatMap(chainOf).join(' → '),
        balance: credits(account?.balance?.millicredits ?? 0),
        ...(covered < inRange && { warnings: [partialBudgetWarning(covered, inRange)] }),
      },
    };
  }
}

/** What each provider of a step would be sent for a row (null: the row lacks what it needs, a free skip). */
function resolvedInputs(step: RunStep, row: Row) {
  if (isToolStep(step)) return { [runStepName(step)]: toolArgsOf(step, row) };
  const subject = subjectOf(row);
  return Object.fromEntries(CHAINS[step].steps.map((s) => [stepName(s), inputFor(s, subject) ?? null]));
}

/** The provider steps a step walks: a capability's chain, or the one catalog method. */
function chainOf(step: RunStep): string[] {
  return isToolStep(step) ? [runStepName(step)] : CHAINS[step].steps.map(stepName);
}

/** A step as the replay key sees it: a tool step's column mapping is part of what was asked. */
function stepKeyOf(step: RunStep): string {
  return isToolStep(step) ? JSON.stringify(step) : step;
}
