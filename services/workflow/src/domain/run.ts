import { createHash, randomBytes } from 'node:crypto';

/**
 * A workflow run (decision 0074): pinned to the version it was queued on; its steps' states are
 * stored as the next one begins (one write a step), so any replica can resume it.
 */
export const RUN_MODES = ['live', 'dry_run', 'smoke_test'] as const;
export type RunMode = (typeof RUN_MODES)[number];

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
export type StepStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped' | 'cancelled';

export interface StepError {
  /** e.g. `insufficient_credits`, `spending_cap_reached`, `too_many_items`, `call_failed`. */
  readonly code: string;
  readonly message: string;
}

/** One item of a step (a `for_each` item, or the step's single call as item 0), once done. */
export interface ItemResult {
  readonly output: unknown;
  readonly chargedMillicredits: number;
  readonly wouldChargeMillicredits: number;
}

export interface StepState {
  readonly id: string;
  readonly uses: string;
  readonly status: StepStatus;
  readonly startedAt?: number;
  readonly endedAt?: number;
  /** Items done so far: a step resumed after a replica died starts after them. */
  readonly items: readonly ItemResult[];
  readonly output?: unknown;
  readonly error?: StepError;
  /** A failed step whose `on_error: continue` let the run go on. */
  readonly continued?: boolean;
}

export interface RunRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly workflowId: string;
  readonly workflowName: string;
  readonly version: number;
  readonly mode: RunMode;
  /** Who started it: `api`, `mcp`, `webhook`, or what the caller said (`source`). */
  readonly source: string;
  readonly status: RunStatus;
  readonly input: Record<string, unknown>;
  readonly steps: readonly StepState[];
  readonly cancelRequested: boolean;
  readonly createdAt: number;
  readonly startedAt?: number;
  readonly endedAt?: number;
  readonly error?: StepError;
  /** The definition's `output` with its references resolved, once the run ended. */
  readonly output?: unknown;
}

export const ENDED_STATUSES: ReadonlySet<RunStatus> = new Set(['succeeded', 'failed', 'cancelled']);
export const ENDED_STEP_STATUSES: ReadonlySet<StepStatus> = new Set(['succeeded', 'failed', 'skipped', 'cancelled']);

/** `wfr_` and 96 random bits. */
export function newRunId(): string {
  return `wfr_${randomBytes(12).toString('hex')}`;
}

/** The run of a call its caller named (an Idempotency-Key's run id): a repeat finds the same run. */
export function runIdOfCall(workspaceId: string, callerRunId: string): string {
  return `wfr_${createHash('sha256').update(`workflow-call:${workspaceId}:${callerRunId}`).digest('hex').slice(0, 24)}`;
}

/**
 * The id of one paid call of a run: the same (run, step, item) always gives the same id, in the
 * catalog's run id format (`run_` + 24 hex digits), so a call repeated after a replica died is
 * recognised by the service that bills it and charged once.
 */
export function paidCallIdOf(runId: string, stepId: string, item: number): string {
  return `run_${createHash('sha256').update(`${runId}:${stepId}:${item}`).digest('hex').slice(0, 24)}`;
}

export function chargedOf(step: Pick<StepState, 'items'>): number {
  return step.items.reduce((sum, item) => sum + item.chargedMillicredits, 0);
}

export function wouldChargeOf(step: Pick<StepState, 'items'>): number {
  return step.items.reduce((sum, item) => sum + item.wouldChargeMillicredits, 0);
}

/** The steps of a new run: every one pending. */
export function pendingSteps(steps: readonly { id: string; uses: string }[]): StepState[] {
  return steps.map(({ id, uses }) => ({ id, uses, status: 'pending', items: [] }));
}

/** How a run ends once no step is left: the first failed step (not allowed to continue) fails it. */
export function endStatusOf(steps: readonly StepState[]): { status: RunStatus; error?: StepError } {
  if (steps.some((step) => step.status === 'cancelled')) return { status: 'cancelled' };
  const failed = steps.find((step) => step.status === 'failed' && !step.continued);
  return failed ? { status: 'failed', error: failed.error } : { status: 'succeeded' };
}
