import { randomBytes } from 'node:crypto';
import { billingEvents, topics } from '@rde/proto';
import type { Clock } from './clock';
import { outboxPush, type NewOutboxEvent } from './outbox';
import type { Collection } from './ports/document-store';

/** A new paid run's id; it is also the id of the credit hold the run reserves. */
export function newRunId(): string {
  return `run_${randomBytes(12).toString('hex')}`;
}

const RUN_ID = /^run_[0-9a-f]{24}$/;

/** Whether `id` is a run id as newRunId makes them (callers may mint their own, e.g. to retry a call). */
export function isRunId(id: string): boolean {
  return RUN_ID.test(id);
}

/** One charge of a run: deterministic id (decision 0004), exact millicredits. */
export interface PaidRunCharge {
  readonly charge_id: string;
  readonly millicredits: number;
  /** The ledger line; the settlement's description when absent. */
  readonly description?: string;
}

/** A run's final settlement: its charges, and the release of the rest of its hold (hold id = run id). */
export interface FinalSettlement {
  readonly settlementId: string;
  readonly runId: string;
  readonly workspaceId: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly description: string;
  readonly charges: readonly PaidRunCharge[];
  readonly createdAtMs: number;
}

/**
 * A settlement that may leave its hold open (`final: false`): a provider job's charges while the
 * run's hold stays for its other jobs. The hold is the run's unless `holdId` says otherwise.
 */
export interface Settlement extends FinalSettlement {
  readonly holdId?: string;
  readonly final: boolean;
}

/** The settlement as an outbox event, keyed by workspace so a workspace's settlements stay ordered. */
export function finalSettlementEvent(settlement: FinalSettlement): NewOutboxEvent {
  return settlementEvent({ ...settlement, final: true });
}

export function settlementEvent(settlement: Settlement): NewOutboxEvent {
  const value = billingEvents.Settlement.encode({
    settlementId: settlement.settlementId,
    workspaceId: settlement.workspaceId,
    holdId: settlement.holdId ?? settlement.runId,
    runId: settlement.runId,
    charges: settlement.charges.map((charge) => ({
      chargeId: charge.charge_id,
      amount: { millicredits: charge.millicredits },
      description: charge.description ?? settlement.description,
      userId: settlement.userId,
      sessionId: settlement.sessionId,
    })),
    final: settlement.final,
    createdAtMs: settlement.createdAtMs,
  }).finish();
  return { id: settlement.settlementId, topic: topics.SETTLEMENTS, key: settlement.workspaceId, value };
}

export type PaidRunStatus = 'running' | 'succeeded' | 'failed';

/** What every paid run document holds (`_id` = run id = hold id); services add their own fields. */
export interface PaidRunDocument {
  _id: string;
  workspace_id: string;
  user_id: string;
  session_id: string;
  status: PaidRunStatus;
  reserved_millicredits: number;
  charges: PaidRunCharge[];
  credits_charged_millicredits: number;
  dataset_id?: string;
  row_count?: number;
  /** Why a failed run failed, for operators. */
  error?: string;
  created_at: Date;
  finished_at?: Date;
  [field: string]: unknown;
}

export interface PaidRunOutcome {
  readonly status: Exclude<PaidRunStatus, 'running'>;
  readonly charges: readonly PaidRunCharge[];
  readonly datasetId?: string;
  readonly rowCount?: number;
  readonly error?: string;
  /** Further fields of the service's run document to set with the outcome. */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/**
 * Paid runs whose settlement rides in the run document's outbox. Two replicas never coordinate
 * beyond the guarded `status: running` update that lets exactly one finish write the settlement.
 */
export class PaidRunRepository<T extends PaidRunDocument> {
  constructor(
    protected readonly runs: Collection<T>,
    protected readonly clock: Clock,
  ) {}

  /** The collection whose documents carry the settlement outbox, for the relay. */
  get collection(): Collection<T> {
    return this.runs;
  }

  async start(run: Omit<T, 'status' | 'charges' | 'credits_charged_millicredits' | 'created_at'>): Promise<void> {
    await this.runs.insertOne({
      ...run,
      status: 'running',
      charges: [],
      credits_charged_millicredits: 0,
      created_at: new Date(this.clock.now()),
    } as unknown as T);
  }

  /**
   * Writes the run's outcome and its settlement in ONE guarded update: the settlement exists if and
   * only if the run finished, and a second finish of the same run writes nothing (returns false).
   */
  async finish(runId: string, outcome: PaidRunOutcome, settlement: NewOutboxEvent): Promise<boolean> {
    const result = await this.runs.updateOne(
      { _id: runId, status: 'running' },
      {
        $set: {
          ...outcome.fields,
          status: outcome.status,
          charges: [...outcome.charges],
          credits_charged_millicredits: outcome.charges.reduce((sum, charge) => sum + charge.millicredits, 0),
          finished_at: new Date(this.clock.now()),
          ...(outcome.datasetId !== undefined && { dataset_id: outcome.datasetId, row_count: outcome.rowCount }),
          ...(outcome.error !== undefined && { error: outcome.error }),
        },
        $push: outboxPush([settlement], this.clock),
      },
    );
    return result.matched === 1;
  }

  get(runId: string): Promise<T | null> {
    return this.runs.findOne({ _id: runId });
  }
}
