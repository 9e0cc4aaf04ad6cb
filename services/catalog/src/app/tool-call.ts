import { errors, type Caller, type Clock, type Logger, type RdeError } from '@rde/platform';
import type { billing, dataset } from '@rde/proto';
import { qualifiedName, type Catalog, type ResolvedMethod } from '../domain/catalog';
import { chargeIdOf, datasetIdOf, newRunId } from '../domain/ids';
import type { CallInput, JsonObject, ParameterResolver, ResolvedParameters } from '../domain/parameters';
import { actualCost, dryRunEstimate, worstCaseCost } from '../domain/pricing';
import { INLINE_ROW_CAP, isPresentAt, replaceAt, rowsAt, SAMPLE_SIZE } from '../domain/rows';
import { settlementEvent } from '../events/settlement';
import type { CatalogClients } from '../clients';
import type { ProviderCaller } from '../providers/caller';
import { publicFailure } from '../domain/call-failures';
import { meteringAfterCall } from '../domain/metering';
import type { RunCharge, RunOutcome, RunRepository } from '../store/runs';

export interface ToolCallRequest {
  readonly tool: string;
  readonly method: string;
  readonly input: CallInput;
  readonly dryRun: boolean;
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
    const target = this.deps.catalog.method(request.tool, request.method);
    if (target.method.job) throw jobMethodRefusal(target);
    const parameters = this.deps.resolver.resolve(target.method, request.input);
    const name = qualifiedName(target);
    if (request.dryRun) return dryRun(target, parameters, name);
    if (worstCaseCost(target.method, parameters.values) === 0) return this.free(target, parameters);
    return this.run({ id: newRunId(), caller, target, name, parameters });
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

  private async run(run: Run): Promise<ToolCallResult> {
    const { method } = run.target;
    const worstCase = worstCaseCost(method, run.parameters.values);
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
    await this.deps.runs.start({
      _id: run.id,
      workspace_id: run.caller.workspaceId,
      user_id: run.caller.userId,
      session_id: run.caller.sessionId,
      tool: run.target.provider.tool,
      method: method.name,
      reserved_millicredits: worstCase,
    });
    try {
      const { charges, persisted, answer } = await this.callAndPersist(run);
      await this.finish(run, {
        status: 'succeeded',
        charges,
        datasetId: persisted?.datasetId,
        rowCount: persisted?.rowCount,
      });
      const charged = charges.reduce((sum, charge) => sum + charge.millicredits, 0);
      const { balance, reserved, settled } = meteringAfterCall(money(account), worstCase, charged);
      return {
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
    } catch (error) {
      // The run finishes as failed with no charge, which releases the hold; if even that write fails,
      // billing's reaper releases the hold when it expires.
      await this.finish(run, { status: 'failed', charges: [], error: String(error) }).catch((writeError: unknown) =>
        this.deps.logger.error({ err: writeError, runId: run.id }, 'could not record the failed tool call'),
      );
      throw publicFailure(run.target, error, run.id);
    }
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
      },
      { caller: run.caller },
    );
    if (rows.length <= INLINE_ROW_CAP) return { datasetId, rowCount: rows.length, result: body };
    const envelope = datasetEnvelope(created, rows);
    return { datasetId, rowCount: rows.length, result: replaceAt(body, run.target.method.rows!.path, envelope) };
  }

  /** Writes the outcome and the final settlement together; the settlement releases the rest of the hold. */
  private async finish(run: Run, outcome: RunOutcome): Promise<void> {
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
      this.deps.logger.error({ runId: run.id }, 'tool call finished twice; the second outcome was not written');
      return;
    }
    // Not awaited: the answer does not wait for Kafka, and the settlement is safe in the outbox.
    void this.deps
      .publishSettlement(run.id)
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error, runId: run.id }, 'settlement left for the outbox relay'),
      );
  }
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
