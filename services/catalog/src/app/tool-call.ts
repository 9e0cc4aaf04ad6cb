import {
  errors,
  httpError,
  isRunId,
  newRunId,
  type Caller,
  type Clock,
  type ErrorBody,
  type Logger,
  type RdeError,
} from '@rde/platform';
import type { billing, dataset } from '@rde/proto';
import { qualifiedName, type Catalog, type ResolvedMethod } from '../domain/catalog';
import { chargeIdOf, datasetIdOf } from '../domain/ids';
import type { CallInput, JsonObject, ParameterResolver, ResolvedParameters } from '../domain/parameters';
import { actualCost, dryRunEstimate, worstCaseCost } from '../domain/pricing';
import { INLINE_ROW_CAP, isPresentAt, replaceAt, rowsAt, SAMPLE_SIZE } from '../domain/rows';
import { settlementEvent } from '../events/settlement';
import type { CatalogClients } from '../clients';
import type { ProviderCaller } from '../providers/caller';
import { publicFailure } from '../domain/call-failures';
import { meteringAfterCall } from '../domain/metering';
import type { RunCharge, RunDocument, RunOutcome, RunRepository } from '../store/runs';

export interface ToolCallRequest {
  readonly tool: string;
  readonly method: string;
  readonly input: CallInput;
  readonly dryRun: boolean;
  /** The caller's run id for this call (a retry sends the same); empty: a fresh one. */
  readonly runId: string;
}

/** The `_meta` of a tool call, amounts in millicredits; each field is present where it applies. */
export interface CallMeta {
  readonly creditsCharged?: number;
  readonly balance?: number;
  readonly reserved?: number;
  readonly runId?: string;
  readonly settled?: boolean;
  readonly datasetId?: string;
  readonly rowCount?: number;
  readonly wouldCharge?: number;
  readonly wouldChargeMax?: number;
  readonly wouldCall?: string;
}

export interface ToolCallResult {
  readonly result: JsonObject;
  readonly meta: CallMeta;
}

export interface ToolCallDependencies {
  readonly catalog: Catalog;
  readonly resolver: ParameterResolver;
  readonly runs: RunRepository;
  readonly clients: CatalogClients;
  readonly providers: ProviderCaller;
  readonly clock: Clock;
  readonly logger: Logger;
  /** How long a call's hold lives before billing's reaper may release it. */
  readonly holdTtlMs: number;
  /** Publishes a finished run's settlement from its outbox now (the outbox relay's poll is the safety net). */
  readonly publishSettlement: (runId: string) => Promise<unknown>;
}

/** One paid call in progress: everything its settlement needs. */
interface Run {
  readonly id: string;
  readonly caller: Caller;
  readonly target: ResolvedMethod;
  readonly name: string;
  readonly parameters: ResolvedParameters;
}

/** Rows persisted to a dataset, and what the response shows of them. */
interface PersistedRows {
  readonly datasetId: string;
  readonly rowCount: number;
  readonly result: JsonObject;
}

/**
 * A single tool call: refuse bad input before anything is spent, reserve the worst case, call the
 * vendor, persist paid rows, and write the run's outcome with its settlement in one update.
 */
export class ToolCalls {
  constructor(private readonly deps: ToolCallDependencies) {}

  async call(request: ToolCallRequest, caller: Caller | undefined): Promise<ToolCallResult> {
    if (!caller?.workspaceId) throw errors.unauthenticated();
    if (request.runId && !isRunId(request.runId)) {
      throw errors.badRequest({ detail: 'run_id must be run_ followed by 24 hexadecimal digits' });
    }
    const target = this.deps.catalog.method(request.tool, request.method);
    if (target.method.job) throw jobMethodRefusal(target);
    const parameters = this.deps.resolver.resolve(target.method, request.input);
    const name = qualifiedName(target);
    if (request.dryRun) return dryRun(target, parameters, name);
    if (worstCaseCost(target.method, parameters.values) === 0) return this.free(target, parameters);
    return this.run({ id: request.runId || newRunId(), caller, target, name, parameters });
  }

  /** A free method (a vendor's reference look-up) holds nothing and settles nothing. */
  private async free(target: ResolvedMethod, parameters: ResolvedParameters): Promise<ToolCallResult> {
    try {
      return {
        result: await this.deps.providers.call(target.provider, target.method, parameters.values),
        meta: { creditsCharged: 0 },
      };
    } catch (error) {
      throw publicFailure(target, error);
    }
  }

  /**
   * The run is started before the hold, so a retry with the same run id (another replica, after
   * this one died) finds it: a finished call is answered as it was, one cut short is taken over
   * (the hold and the charge ids are the run's, and only one finish is written).
   */
  private async run(run: Run): Promise<ToolCallResult> {
    const { method } = run.target;
    const worstCase = worstCaseCost(method, run.parameters.values);
    const earlier = await this.deps.runs.startOrFind({
      _id: run.id,
      workspace_id: run.caller.workspaceId,
      user_id: run.caller.userId,
      session_id: run.caller.sessionId,
      tool: run.target.provider.tool,
      method: method.name,
      reserved_millicredits: worstCase,
    });
    if (earlier) {
      if (!sameCall(earlier, run)) throw errors.conflict({ detail: `run_id ${run.id} belongs to another call` });
      if (earlier.status !== 'running') return answerOf(earlier);
    }
    const account = await this.reserve(run, worstCase, earlier === undefined);
    const result = await this.callAndFinish(run, money(account), worstCase);
    return result ?? answerOf(await this.finishedRun(run.id));
  }

  /**
   * Calls the vendor, persists paid rows and writes the outcome (a failure is written as such, then
   * thrown); undefined when another attempt of the same call finished it first.
   */
  private async callAndFinish(
    run: Run,
    before: { balance: number; reserved: number },
    worstCase: number,
  ): Promise<ToolCallResult | undefined> {
    try {
      const { charges, persisted, answer } = await this.callAndPersist(run);
      const charged = charges.reduce((sum, charge) => sum + charge.millicredits, 0);
      const { balance, reserved, settled } = meteringAfterCall(before, worstCase, charged);
      const result: ToolCallResult = {
        result: persisted?.result ?? answer,
        meta: {
          creditsCharged: charged,
          balance,
          reserved,
          runId: run.id,
          settled,
          ...(persisted && { datasetId: persisted.datasetId, rowCount: persisted.rowCount }),
        },
      };
      const outcome: RunOutcome = {
        status: 'succeeded',
        charges,
        datasetId: persisted?.datasetId,
        rowCount: persisted?.rowCount,
        fields: { answer_json: JSON.stringify(result) },
      };
      return (await this.finish(run, outcome)) ? result : undefined;
    } catch (error) {
      await this.fail(run, error);
      return undefined;
    }
  }

  /**
   * The run finishes as failed with no charge, which releases the hold (if even that write fails,
   * billing's reaper releases it when it expires), and the public failure is thrown; it returns
   * only when another attempt of the call finished it first.
   */
  private async fail(run: Run, error: unknown): Promise<void> {
    const failure = publicFailure(run.target, error, run.id);
    const answer = { error: { status: failure.httpStatus, body: failure.body } };
    const outcome: RunOutcome = {
      status: 'failed',
      charges: [],
      error: String(error),
      fields: { answer_json: JSON.stringify(answer) },
    };
    const finished = await this.finish(run, outcome).catch((writeError: unknown) => {
      this.deps.logger.error({ err: writeError, runId: run.id }, 'could not record the failed tool call');
      return true;
    });
    if (finished) throw failure;
  }

  /**
   * Holds the worst case under the run's id (a retry finds its hold standing). A refusal leaves
   * nothing behind: the run this call started is removed, so a retry starts afresh.
   */
  private async reserve(run: Run, worstCase: number, startedHere: boolean) {
    try {
      const { account } = await this.deps.clients.billing.reserve(
        {
          holdId: run.id,
          runId: run.id,
          amount: { millicredits: worstCase },
          ttlMs: this.deps.holdTtlMs,
          description: `tool call ${run.name}`,
        },
        { caller: run.caller },
      );
      return account;
    } catch (error) {
      if (startedHere) await this.deps.runs.forget(run.id);
      throw error;
    }
  }

  /** The run another attempt of the same call finished first. */
  private async finishedRun(runId: string): Promise<RunDocument> {
    const found = await this.deps.runs.get(runId);
    if (!found) throw new Error(`run ${runId} finished but is gone`);
    return found;
  }

  private async callAndPersist(run: Run) {
    const { method } = run.target;
    const answer = await this.deps.providers.call(run.target.provider, method, run.parameters.values);
    const rows = method.rows ? rowsAt(answer, method.rows.path) : undefined;
    const cost = actualCost(method, run.parameters.values, {
      rowCount: rows?.length ?? 0,
      hit: method.hitPath !== undefined && isPresentAt(answer, method.hitPath),
    });
    const charges: RunCharge[] =
      cost > 0 ? [{ charge_id: chargeIdOf(run.id, run.target.provider.tool, method.name), millicredits: cost }] : [];
    // Only rows that cost credits are persisted: a free answer has nothing the client paid to keep.
    const persisted = cost > 0 && rows && rows.length > 0 ? await this.persistRows(run, answer, rows) : undefined;
    return { charges, persisted, answer };
  }

  /**
   * Every paid row list goes to a dataset. Up to INLINE_ROW_CAP rows also stay inline as the vendor
   * sent them; above it the row list is replaced in place by the dataset envelope with a five-row
   * sample, and the vendor's metadata beside it (totals, pagination, track ids) stays as it was.
   */
  private async persistRows(run: Run, body: JsonObject, rows: JsonObject[]): Promise<PersistedRows> {
    const datasetId = datasetIdOf(run.id);
    const created = await this.deps.clients.dataset.createDataset(
      {
        datasetId,
        name: `${run.name} ${run.id}`,
        rowsJson: Buffer.from(JSON.stringify(rows)),
        source: `tool:${run.name}`,
        runId: run.id,
        sessionId: run.caller.sessionId,
        copyOfDatasetId: '',
      },
      { caller: run.caller },
    );
    if (rows.length <= INLINE_ROW_CAP) return { datasetId, rowCount: rows.length, result: body };
    const envelope = datasetEnvelope(created, rows);
    return { datasetId, rowCount: rows.length, result: replaceAt(body, run.target.method.rows!.path, envelope) };
  }

  /**
   * Writes the outcome and the final settlement together; the settlement releases the rest of the
   * hold. False when another attempt of the same call finished it first (nothing written then).
   */
  private async finish(run: Run, outcome: RunOutcome): Promise<boolean> {
    const event = settlementEvent({
      runId: run.id,
      workspaceId: run.caller.workspaceId,
      userId: run.caller.userId,
      sessionId: run.caller.sessionId,
      description: `tool call ${run.name}`,
      charges: outcome.charges,
      createdAtMs: this.deps.clock.now(),
    });
    if (!(await this.deps.runs.finish(run.id, outcome, event))) {
      this.deps.logger.warn({ runId: run.id }, 'tool call finished by another attempt; answering what it wrote');
      return false;
    }
    // Not awaited: the answer does not wait for Kafka, and the settlement is safe in the outbox.
    void this.deps
      .publishSettlement(run.id)
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error, runId: run.id }, 'settlement left for the outbox relay'),
      );
    return true;
  }
}

/** A retry may only repeat its own call: same workspace, same method. */
function sameCall(earlier: RunDocument, run: Run): boolean {
  return (
    earlier.workspace_id === run.caller.workspaceId &&
    earlier.tool === run.target.provider.tool &&
    earlier.method === run.target.method.name
  );
}

/** What a finished run answered: its result, or its failure thrown again. */
function answerOf(finished: RunDocument): ToolCallResult {
  if (!finished.answer_json) throw errors.conflict({ detail: `run ${finished._id} already finished` });
  const answer = JSON.parse(finished.answer_json) as ToolCallResult | { error: { status: number; body: ErrorBody } };
  if ('error' in answer) throw httpError(answer.error.status, answer.error.body);
  return answer;
}

/** An asynchronous vendor's job methods are reached through the enrichment waterfalls only. */
function jobMethodRefusal(target: ResolvedMethod): RdeError {
  return errors.badRequest({
    error: 'job_method',
    detail: `${qualifiedName(target)} runs provider jobs for the enrichment waterfalls (POST /enrich/{capability}); open jobs are read with GET /enrich/jobs/{provider}/{job_id}`,
    tool: target.provider.tool,
    method: target.method.name,
    credits_charged: 0,
  });
}

function dryRun(target: ResolvedMethod, parameters: ResolvedParameters, name: string): ToolCallResult {
  const estimate = dryRunEstimate(target.method, parameters.values);
  return {
    result: { dry_run: true, args: parameters.args, kwargs: parameters.kwargs },
    meta: { wouldCharge: estimate.wouldCharge, wouldChargeMax: estimate.wouldChargeMax, wouldCall: name },
  };
}

/** The canonical dataset envelope (as the datasets routes show a created dataset) with its sample. */
function datasetEnvelope(created: dataset.CreateDatasetResponse, rows: JsonObject[]): JsonObject {
  const meta = created.dataset!;
  return {
    id: meta.id,
    name: meta.name,
    columns: meta.columns,
    row_count: meta.rowCount,
    created_at: new Date(meta.createdAtMs).toISOString(),
    session_id: meta.sessionId || null,
    sample: rows.slice(0, SAMPLE_SIZE),
  };
}

function money(account: billing.Account | undefined): { balance: number; reserved: number } {
  return { balance: account?.balance?.millicredits ?? 0, reserved: account?.reserved?.millicredits ?? 0 };
}
