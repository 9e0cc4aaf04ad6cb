import { createHash } from 'node:crypto';
import type { Capability } from '../enrich/chains';
import type { Row } from '../enrich/subject';

/**
 * A `tool.method` step of a run (decision 0031): one paid catalog call per row, each declared
 * parameter in `args` read from the row column it names. Its result goes into the row under the
 * column named after the step (`<tool>.<method>`).
 */
export interface ToolStep {
  readonly tool: string;
  readonly method: string;
  /** Parameter name → the row column its value is read from. */
  readonly args: Readonly<Record<string, string>>;
}

export type RunStep = Capability | ToolStep;

export const isToolStep = (step: RunStep): step is ToolStep => typeof step !== 'string';

/** A step's name: the capability, or `tool.method` (also the column a tool step writes). */
export const runStepName = (step: RunStep): string => (isToolStep(step) ? `${step.tool}.${step.method}` : step);

/** What a tool step sends for a row: each mapped parameter whose column holds a value. */
export function toolArgsOf(step: ToolStep, row: Row): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(step.args).flatMap(([param, column]) => {
      const value = row[column];
      return value === undefined || value === null || value === '' ? [] : [[param, value]];
    }),
  );
}

/**
 * The catalog run id of one row's call (`run_` + 24 hex, decision 0044), fixed by the run, the
 * row and the step: a chunk walked again after a redelivery repeats the call, which CallTool
 * answers from its stored outcome without charging again.
 */
export function toolCallRunIdOf(runId: string, row: number, step: string): string {
  return `run_${createHash('sha256').update(`${runId}:${row}:${step}`).digest('hex').slice(0, 24)}`;
}
