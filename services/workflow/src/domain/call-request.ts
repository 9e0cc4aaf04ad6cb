import type { ValidationIssue } from '@rde/platform';
import { RUN_MODES, type RunMode } from './run';
import { isObject } from './references';

/** The keys that name the workflow to call, in the spec's order: the first present wins. */
const WORKFLOW_KEYS = ['workflow', 'workflow_id', 'workflow_name', 'name'] as const;
const KNOWN_KEYS = new Set<string>([...WORKFLOW_KEYS, 'input', 'payload', 'mode', 'source']);
const SOURCE_MAX = 100;

/** Which workflow a call names: by id (`wf_…`) or by name. `workflow` may be either. */
export type WorkflowReference = { readonly by: 'id' | 'name'; readonly value: string };

export interface CallRequest {
  readonly workflow: WorkflowReference;
  readonly input: Record<string, unknown>;
  readonly mode: RunMode;
  readonly source?: string;
}

/** One refused field, in the spec's validation-error format (loc, msg, type). */
export type CallIssue = ValidationIssue;

/** Reads a `POST /workflows/call` body (spec "Workflows"), or says what is wrong with it. */
export function parseCallRequest(body: unknown): { request: CallRequest } | { issues: CallIssue[] } {
  if (!isObject(body)) return { issues: [issue([], 'the body must be a JSON object', 'type_error')] };
  const issues: CallIssue[] = Object.keys(body)
    .filter((key) => !KNOWN_KEYS.has(key))
    .map((key) => issue([key], `unknown field; a call takes ${[...KNOWN_KEYS].join(', ')}`, 'extra_forbidden'));
  const named = WORKFLOW_KEYS.filter((key) => body[key] !== undefined);
  const workflow = named[0] === undefined ? undefined : referenceOf(named[0], body[named[0]]);
  if (named.length !== 1)
    issues.push(issue([], `name the workflow with exactly one of ${WORKFLOW_KEYS.join(', ')}`, 'missing'));
  else if (!workflow) issues.push(issue([named[0]!], 'a workflow id or name (1 to 100 characters)', 'string_type'));
  if (body.input !== undefined && body.payload !== undefined)
    issues.push(issue(['payload'], 'send the input as input or as payload, not both', 'value_error'));
  const input = body.input ?? body.payload ?? {};
  if (!isObject(input))
    issues.push(
      issue([body.input === undefined ? 'payload' : 'input'], 'the input must be a JSON object', 'dict_type'),
    );
  const mode = body.mode ?? 'live';
  if (!RUN_MODES.includes(mode as RunMode))
    issues.push(issue(['mode'], `mode is one of ${RUN_MODES.join(', ')}`, 'enum'));
  const { source } = body;
  if (source !== undefined && (typeof source !== 'string' || source.length === 0 || source.length > SOURCE_MAX))
    issues.push(issue(['source'], `source is a string of 1 to ${SOURCE_MAX} characters`, 'string_type'));
  if (issues.length > 0 || !workflow) return { issues };
  return {
    request: {
      workflow,
      input: input as Record<string, unknown>,
      mode: mode as RunMode,
      ...(typeof source === 'string' && { source }),
    },
  };
}

function referenceOf(key: (typeof WORKFLOW_KEYS)[number], value: unknown): WorkflowReference | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 100) return undefined;
  if (key === 'workflow_id') return { by: 'id', value };
  if (key === 'workflow') return { by: value.startsWith('wf_') ? 'id' : 'name', value };
  return { by: 'name', value };
}

function issue(loc: (string | number)[], msg: string, type: string): CallIssue {
  return { loc: ['body', ...loc], msg, type };
}
