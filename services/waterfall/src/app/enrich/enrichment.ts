import {
  DuplicateKeyError,
  errors,
  isRunId,
  type Account,
  type CapRefusal,
  type Caller,
  type CreditHolds,
  type KeyValue,
  type PaidRunKit,
  type RunLeases,
} from '@rde/platform';
import { storedCallerOf } from '../../domain/callers';
import { CHAINS, isCapability, type Chain } from '../../domain/enrich/chains';
import { enrichDatasetIdOf, enrichRunIdOf, newEnrichRunId, replayKeyOf } from '../../domain/enrich/ids';
import { rowsOf } from '../../domain/enrich/request';
import { subjectOf } from '../../domain/enrich/subject';
import { cappedWalk, spendingCapWarning } from '../../domain/enrich/spending-cap';
import { enrichedRow, startWalk, stepName } from '../../domain/enrich/walk';
import type { WaterfallClients } from '../../clients';
import type { EnrichRunDocument, EnrichRunRepository } from '../../store/enrich-runs';
import type { EnrichAnswers } from './enrich-answers';
import type { EnrichResult } from './enrich-result';
import type { EnrichWalks } from './enrich-walks';
import type { ProviderPort } from '../../clients/providers';
import { worstCasePerRow } from './prices';

export interface EnrichRequest {
  readonly capability: string;
  /** One row (a JSON object), or undefined. */
  readonly payload?: unknown;
  /** Up to 100 rows, or undefined; exclusive with payload. */
  readonly rows?: unknown;
  readonly dryRun: boolean;
  /** The caller's id for this call (a keyed request, a workflow step), or '': a repeat joins its run. */
  readonly callerRunId: string;
}

/** How long a repeated single-row call waits for the first one's run to end, as the call itself would. */
const JOIN_WAIT_MS = 60_000;
const JOIN_POLL_MS = 250;

export interface EnrichmentDependencies {
  readonly runs: EnrichRunRepository;
  readonly providers: ProviderPort;
  readonly clients: WaterfallClients;
  readonly kit: PaidRunKit;
  /** The background walks, and this replica's lease on the runs it starts. */
  readonly walks: EnrichWalks;
  readonly leases: RunLeases<EnrichRunDocument>;
  readonly owner: string;
  readonly answers: EnrichAnswers;
  readonly replayKeys: KeyValue;
  /** Rule 7: how long an identical rows batch replays the first run (spec "Limits": 15 minutes). */
  readonly replayWindowMs: number;
  /** How long a rows call waits for its run before answering `running` (rule 6). */
  readonly detachMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * An enrichment waterfall call (spec "Enrichment waterfalls"): bad input is refused before anything
 * is spent; an identical rows batch within 15 minutes is replayed at zero; otherwise the worst
 * case is held, the rows are persisted as a dataset and walked down the chain, each row written
 * as it finishes, and the run's settlement is written with its end.
 */
export class Enrichment {
  constructor(private readonly deps: EnrichmentDependencies) {}

  async enrich(request: EnrichRequest, caller: Caller | undefined): Promise<EnrichResult> {
    if (!caller?.workspaceId) throw errors.unauthenticated();
    if (!isCapability(request.capability)) {
      throw errors.notFound(`unknown enrichment capability: ${request.capability}`);
    }
    if (request.callerRunId && !isRunId(request.callerRunId)) {
      throw errors.badRequest({ detail: 'run_id must be run_ followed by 24 hexadecimal digits' });
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
    const runId = request.callerRunId ? enrichRunIdOf(caller.workspaceId, request.callerRunId) : newEnrichRunId();
    const joined = request.callerRunId
      ? await this.join(runId, chain, caller, request.payload !== undefined)
      : undefined;
    if (joined) return joined;
    const replayKey = request.rows !== undefined ? replayKeyOf(caller.workspaceId, chain.capability, rows) : undefined;
    if (replayKey && !(await this.deps.replayKeys.setIfAbsent(replayKey, runId, this.deps.replayWindowMs))) {
      const first = await this.deps.replayKeys.get(replayKey);
      if (first) return this.deps.answers.replay(first, caller);
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
        copyOfDatasetId: '',
      },
      { caller },
    );
    const started = await this.deps.runs
      .start({
        _id: runId,
        ...storedCallerOf(caller),
        capability: chain.capability,
        dataset_id: datasetId,
        total: rows.length,
        reserved_millicredits: held,
        rows,
        ...(refusal && {
          capped_from: heldRows,
          warnings: [spendingCapWarning(chain, rows.length - heldRows, refusal)],
        }),
        ...this.deps.leases.leaseFor(this.deps.owner),
      })
      .then(
        () => true,
        (error: unknown) => {
          if (error instanceof DuplicateKeyError) return false;
          throw error;
        },
      );
    // A repeat of this call got here first (both hold and write the dataset under the same ids).
    if (!started) return (await this.join(runId, chain, caller, request.payload !== undefined))!;
    const live = this.deps.walks.start({ runId, datasetId, caller, chain, rows, subjects, cappedFrom: heldRows });
    if (request.payload !== undefined) await live.finished;
    else await Promise.race([live.finished, this.deps.sleep(this.deps.detachMs)]);
    return this.deps.answers.view(runId, datasetId, caller, live, account, held);
  }

  /**
   * A repeat of a call its caller named: that call's run as it stands (a single row waits for its
   * end, as the call itself does), charged what it charged; undefined when there is none yet.
   */
  private async join(
    runId: string,
    chain: Chain,
    caller: Caller,
    waitForEnd: boolean,
  ): Promise<EnrichResult | undefined> {
    let run = await this.deps.runs.find(caller.workspaceId, runId);
    if (!run) return undefined;
    if (run.capability !== chain.capability) throw errors.conflict({ detail: 'run_id belongs to another call' });
    for (let waited = 0; waitForEnd && run.status === 'running' && waited < JOIN_WAIT_MS; waited += JOIN_POLL_MS) {
      await this.deps.sleep(JOIN_POLL_MS);
      run = (await this.deps.runs.find(caller.workspaceId, runId)) ?? run;
    }
    return this.deps.answers.joined(run, caller);
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
  ): Promise<{ account: Account; heldRows: number; refusal?: CapRefusal }> {
    const holds: CreditHolds = this.deps.kit.holds;
    const description = `enrichment ${chain.capability}`;
    // Nothing runs without a hold: the same rows sent again must run, not replay a refusal.
    const outcome = await holds
      .reserve({ runId, payer: caller, amount: perRow * rowCount, unit: perRow, description })
      .catch(async (error: unknown) => {
        if (replayKey) await this.deps.replayKeys.delete(replayKey);
        throw error;
      });
    if (!('refused' in outcome)) {
      const { account, held, cappedBy } = outcome;
      return { account, heldRows: Math.floor(held / perRow), ...(cappedBy && { refusal: cappedBy }) };
    }
    if (replayKey) await this.deps.replayKeys.delete(replayKey);
    if (outcome.refused.reason !== 'spending_cap_reached') throw outcome.refused.error;
    // Not one row fits: all are capped, nothing is held; the answer still shows the balance.
    return { account: await holds.account(caller), heldRows: 0, refusal: outcome.refused };
  }
}
