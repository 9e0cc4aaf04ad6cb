import { errors, type ValidationIssue } from '@rde/platform';
import { isCapability } from '../enrich/chains';
import type { Row } from '../enrich/subject';
import { runStepName, type RunStep, type ToolStep } from './tool-steps';

/** Rows an `input_rows` run may carry (a larger list belongs in a dataset first). */
export const MAX_INPUT_ROWS = 10_000;
/** Steps of one run: each capability or tool method at most once. */
export const MAX_STEPS = 4;

/** What the run is asked to do: spend (`run`), or one of the no-spend checks. */
export type RunMode = 'run' | 'estimate' | 'dry_run' | 'preview';

/** A `START:END` slice of the rows; END exclusive, either side may be omitted. */
export interface RowRange {
  readonly start: number;
  readonly end?: number;
}

/** `POST /enrich/run` as the service reads it (decision 0031). */
export interface RunRequest {
  readonly input?: string;
  readonly inputRows?: readonly Row[];
  readonly steps: readonly RunStep[];
  /** The body key the steps came under (`steps`, `specs` or `waterfalls`), for the 422's `loc`. */
  readonly stepsKey: string;
  readonly range?: RowRange;
  readonly inPlace: boolean;
  readonly outputName?: string;
  readonly mode: RunMode;
  readonly detach: boolean;
  readonly sessionId?: string;
}

/** Alternative names of `steps` the spec accepts. */
const STEP_KEYS = ['steps', 'specs', 'waterfalls'] as const;

/**
 * Reads and checks the body before anything is spent; every problem is one item of the 422's
 * validation list, so a client fixes them all at once.
 */
export function runRequestOf(body: Record<string, unknown>): RunRequest {
  const issues: ValidationIssue[] = [];
  const issue = (loc: (string | number)[], msg: string, type: string) =>
    issues.push({ loc: ['body', ...loc], msg, type });

  const input = body.input;
  const inputRows = body.input_rows;
  if ((input === undefined) === (inputRows === undefined)) {
    issue(['input'], 'send exactly one of input (a ds_ dataset id) or input_rows', 'value_error.input');
  }
  if (input !== undefined && (typeof input !== 'string' || !/^ds_[A-Za-z0-9_-]{1,190}$/.test(input))) {
    issue(['input'], 'must be a ds_ dataset id', 'value_error.dataset_id');
  }
  if (inputRows !== undefined) rowsIssues(inputRows, issue);

  const stepKeys = STEP_KEYS.filter((key) => body[key] !== undefined);
  if (stepKeys.length !== 1) issue(['steps'], 'send steps (or specs, or waterfalls) once', 'missing');
  const steps = stepKeys.length === 1 ? stepsOf(body[stepKeys[0]!], stepKeys[0]!, issue) : [];

  const range = body.range === undefined ? undefined : rangeOf(body.range, issue);
  const flags = Object.fromEntries(
    (['in_place', 'estimate', 'dry_run', 'preview', 'detach'] as const).map((name) => {
      const value = body[name];
      if (value !== undefined && typeof value !== 'boolean') issue([name], 'must be boolean', 'bool_type');
      return [name, value === true];
    }),
  ) as Record<'in_place' | 'estimate' | 'dry_run' | 'preview' | 'detach', boolean>;
  if (flags.in_place && inputRows !== undefined) {
    issue(['in_place'], 'in_place updates an input dataset; input_rows have none', 'value_error.in_place');
  }
  const outputName = body.output_name;
  if (
    outputName !== undefined &&
    (typeof outputName !== 'string' || outputName.length === 0 || outputName.length > 200)
  ) {
    issue(['output_name'], 'must be a name of 1 to 200 characters', 'string_type');
  }
  if (flags.in_place && outputName !== undefined) {
    issue(['output_name'], 'in_place writes into the input dataset; output_name names a new one', 'value_error.output');
  }
  const sessionId = body.session_id;
  if (sessionId !== undefined && (typeof sessionId !== 'string' || !/^(ses_[A-Za-z0-9_-]+)?$/.test(sessionId))) {
    issue(['session_id'], 'must be a ses_ id', 'value_error.session_id');
  }
  if (issues.length > 0) throw errors.validation(issues);
  const mode: RunMode = flags.estimate ? 'estimate' : flags.dry_run ? 'dry_run' : flags.preview ? 'preview' : 'run';
  return {
    ...(typeof input === 'string' && { input }),
    ...(Array.isArray(inputRows) && { inputRows: inputRows as Row[] }),
    steps,
    stepsKey: stepKeys[0] ?? 'steps',
    ...(range && { range }),
    inPlace: flags.in_place,
    ...(typeof outputName === 'string' && { outputName }),
    mode,
    detach: flags.detach,
    ...(typeof sessionId === 'string' && sessionId !== '' && { sessionId }),
  };
}

type Issue = (loc: (string | number)[], msg: string, type: string) => void;

function rowsIssues(rows: unknown, issue: Issue): void {
  if (!Array.isArray(rows)) return issue(['input_rows'], 'must be array', 'array_type');
  if (rows.length === 0 || rows.length > MAX_INPUT_ROWS) {
    return issue(['input_rows'], `must hold 1 to ${MAX_INPUT_ROWS} rows`, 'too_long');
  }
  rows.forEach((row, index) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      issue(['input_rows', index], 'must be object', 'object_type');
    }
  });
}

/**
 * Steps are capabilities, by name (`"email_enrichment"`) or as `{capability}` (also `{waterfall}`
 * or `{name}`), or catalog methods: `"tool.method"` or `{tool, method, args}` with each argument
 * naming its row column (`"col"` or `{column: "col"}`). Tool steps are checked against the
 * catalog's declarations by the run itself (decision 0031).
 */
function stepsOf(value: unknown, key: string, issue: Issue): RunStep[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_STEPS) {
    issue([key], `must hold 1 to ${MAX_STEPS} steps`, 'too_long');
    return [];
  }
  const steps: RunStep[] = [];
  value.forEach((raw, index) => {
    const step = runStepOf(raw, (msg) => issue([key, index], msg, 'value_error.step'));
    if (step === undefined) return;
    const name = runStepName(step);
    if (steps.some((other) => runStepName(other) === name)) {
      issue([key, index], `${name} is already a step`, 'value_error.duplicate');
    } else steps.push(step);
  });
  return steps;
}

function runStepOf(step: unknown, refuse: (msg: string) => void): RunStep | undefined {
  const record =
    typeof step === 'object' && step !== null && !Array.isArray(step) ? (step as Record<string, unknown>) : {};
  if (record.tool !== undefined) return toolStepOf(record, refuse);
  const name = typeof step === 'string' ? step : (record.capability ?? record.waterfall ?? record.name);
  if (typeof name === 'string' && isCapability(name)) return name;
  if (typeof name === 'string' && TOOL_METHOD.test(name)) {
    const [tool, method] = name.split('.') as [string, string];
    return { tool, method, args: {} };
  }
  refuse('must be one of email_enrichment, personal_email, linkedin_profile, phone_enrichment, or a tool.method step');
  return undefined;
}

const TOOL_METHOD = /^[a-z0-9_-]{1,64}\.[a-z0-9_]{1,64}$/;
const NAME = /^[a-z0-9_-]{1,64}$/;

function toolStepOf(record: Record<string, unknown>, refuse: (msg: string) => void): ToolStep | undefined {
  const { tool, method, args = {} } = record;
  if (typeof tool !== 'string' || !NAME.test(tool) || typeof method !== 'string' || !NAME.test(method)) {
    refuse('a tool step needs tool and method names');
    return undefined;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    refuse('args must map each parameter to a row column');
    return undefined;
  }
  const mapped: Record<string, string> = {};
  for (const [param, source] of Object.entries(args as Record<string, unknown>)) {
    const column = typeof source === 'object' && source !== null ? (source as { column?: unknown }).column : source;
    if (typeof column !== 'string' || column === '') {
      refuse(`args.${param} must name a row column ("column" or {"column": "column"})`);
      return undefined;
    }
    mapped[param] = column;
  }
  return { tool, method, args: mapped };
}

/** `START:END`, both optional non-negative integers, START before END. */
function rangeOf(value: unknown, issue: Issue): RowRange | undefined {
  const match = typeof value === 'string' ? /^(\d{0,9}):(\d{0,9})$/.exec(value) : null;
  if (!match) {
    issue(['range'], 'must be START:END (row positions, END exclusive), e.g. 0:100', 'value_error.range');
    return undefined;
  }
  const start = match[1] ? Number(match[1]) : 0;
  const end = match[2] ? Number(match[2]) : undefined;
  if (end !== undefined && end <= start) {
    issue(['range'], 'END must be after START', 'value_error.range');
    return undefined;
  }
  return { start, ...(end !== undefined && { end }) };
}
