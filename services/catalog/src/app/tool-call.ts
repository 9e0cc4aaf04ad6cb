import {
  answerJsonOf,
  chargeIdOf,
  errors,
  failureJsonOf,
  heldOrThrow,
  isRunId,
  meteringAfter,
  newRunId,
  storedAnswerOf,
  totalOf,
  type Account,
  type Caller,
  type Logger,
  type PaidRunKit,
  type PaidRunRef,
} from '@rde/platform';
import { qualifiedName, type Catalog, type ResolvedMethod } from '../domain/catalog';
import type { ParameterResolver, ResolvedParameters } from '../domain/parameters';
import { actualCost, dryRunEstimate, worstCaseCost } from '../domain/pricing';
import { isPresentAt, rowsAt } from '../domain/rows';
import type { CatalogClients } from '../clients';
import type { ProviderCaller } from '../providers/caller';
import { JobMethodCall, publicFailure } from '../domain/call-failures';
import type { RunCharge, RunDocument, RunOutcome, RunRepository } from '../store/runs';
import { persistRows } from './persist-rows';
import type { ToolCallRequest, ToolCallResult } from './tool-call-result';

export interface ToolCallDependencies {
  readonly catalog: Catalog;
  readonly resolver: ParameterResolver;
  readonly runs: RunRepository;
  readonly clients: CatalogClients;
  readonly providers: ProviderCaller;
  /** The money flow: the call's hold, its settlement with its outcome (the platform's paid-run kit). */
  readonly kit: PaidRunKit;
  readonly logger: Logger;
}

/** One paid call in progress: everything its settlement needs. */
interface Run {
  readonly id: string;
  readonly caller: Caller;
  readonly target: ResolvedMethod;
  readonly name: string;
  readonly parameters: ResolvedParameters;
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
    if (target.method.job) throw new JobMethodCall(target);
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
      if (earlier.status !== 'running') return storedAnswerOf<ToolCallResult>(earlier);
    }
    const account = await this.reserve(run, worstCase, earlier === undefined);
    const result = await this.callAndFinish(run, account, worstCase);
    return result ?? storedAnswerOf<ToolCallResult>(await this.finishedRun(run.id));
  }

  /**
   * Calls the vendor, persists paid rows and writes the outcome (a failure is written as such, then
   * thrown); undefined when another attempt of the same call finished it first.
   */
  private async callAndFinish(run: Run, before: Account, worstCase: number): Promise<ToolCallResult | undefined> {
    try {
      const { charges, persisted, answer } = await this.callAndPersist(run);
      const charged = totalOf(charges);
      const { balance, reserved, settled } = meteringAfter(before, worstCase, charged);
      const result: ToolCallResult = {
        result: persisted?.result ?? answer,
        ...(persisted?.dataset && { dataset: persisted.dataset }),
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
        fields: { answer_json: answerJsonOf(result) },
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
    const outcome: RunOutcome = {
      status: 'failed',
      charges: [],
      error: String(error),
      fields: { answer_json: failureJsonOf(failure) },
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
  private async reserve(run: Run, worstCase: number, startedHere: boolean): Promise<Account> {
    try {
      const outcome = await this.deps.kit.holds.reserve({ ...refOf(run), amount: worstCase });
      return heldOrThrow(outcome).account;
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
    const charges: RunCharge[] = cost > 0 ? [{ charge_id: chargeIdOf(run.id, 0, run.name), millicredits: cost }] : [];
    // Only rows that cost credits are persisted: a free answer has nothing the client paid to keep.
    const persisted =
      cost > 0 && rows && rows.length > 0 ? await persistRows(this.deps.clients.dataset, run, answer, rows) : undefined;
    return { charges, persisted, answer };
  }

  /**
   * Writes the outcome and the final settlement together; the settlement releases the rest of the
   * hold. False when another attempt of the same call finished it first (nothing written then).
   */
  private async finish(run: Run, outcome: RunOutcome): Promise<boolean> {
    return this.deps.kit.finish(refOf(run), { charges: outcome.charges }, (settlement) =>
      this.deps.runs.finish(run.id, outcome, settlement),
    );
  }
}

/** The call as the paid-run kit knows it: hold id = run id, the caller pays. */
function refOf(run: Run): PaidRunRef & { payer: Caller } {
  return { runId: run.id, payer: run.caller, description: `tool call ${run.name}` };
}

/** A retry may only repeat its own call: same workspace, same method. */
function sameCall(earlier: RunDocument, run: Run): boolean {
  return (
    earlier.workspace_id === run.caller.workspaceId &&
    earlier.tool === run.target.provider.tool &&
    earlier.method === run.target.method.name
  );
}

function dryRun(target: ResolvedMethod, parameters: ResolvedParameters, name: string): ToolCallResult {
  const estimate = dryRunEstimate(target.method, parameters.values);
  return {
    result: {},
    dryRun: { args: parameters.args, kwargs: parameters.kwargs },
    meta: { wouldCharge: estimate.wouldCharge, wouldChargeMax: estimate.wouldChargeMax, wouldCall: name },
  };
}
