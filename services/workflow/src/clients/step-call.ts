import type { Caller } from '@rde/platform';
import type { common } from '@rde/proto';
import type { Uses } from '../domain/uses';

/** One paid or free call a step made: its answer as the REST route shows it, and its money. */
export interface StepCallResult {
  readonly output: Record<string, unknown>;
  readonly chargedMillicredits: number;
  readonly wouldChargeMillicredits: number;
}

/** A step's call: what it uses, its resolved `with`, the run's mode and the call's deterministic id. */
export interface StepCall {
  readonly uses: Extract<Uses, { kind: 'builtin' | 'method' }>;
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly dryRun: boolean;
  readonly callId: string;
  readonly caller: Caller;
}

/** One builtin step's call over its service's contract. */
export type BuiltinCall = (step: StepCall) => Promise<StepCallResult>;

export const bytes = (value: unknown) => Buffer.from(value === undefined ? '' : JSON.stringify(value));
export const parsed = (json: Uint8Array) =>
  JSON.parse(Buffer.from(json).toString('utf8') || '{}') as Record<string, unknown>;
export const milli = (amount: common.Credits | undefined) => amount?.millicredits ?? 0;

/** A free call's result: its answer, nothing charged or estimated. */
export const free = (output: Record<string, unknown>): StepCallResult => ({
  output,
  chargedMillicredits: 0,
  wouldChargeMillicredits: 0,
});
