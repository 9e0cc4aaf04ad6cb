/** JSON schemas of the /session/* routes (spec "Sessions"); the session's fields: decision 0021. */
import { sessionId as anySessionId, jsonObject } from '../../contract';
import { errorsOf, MAX_CAP } from '../billing/schemas';

/**
 * Required here, and exactly the ids start creates (billing's domain/sessions.ts): any other value is
 * the spec's 400 `invalid_session_id` (errors.ts).
 */
const sessionId = {
  ...anySessionId,
  pattern: '^ses_[0-9a-f]{32}$',
  description: 'the `ses_` id from /session/start',
} as const;
/** A plan holds at most MAX_STEPS steps; a step index past it is refused like any out-of-range field. */
const MAX_STEPS = 200;
const stepIndex = { type: 'integer', minimum: 0, maximum: MAX_STEPS - 1 } as const;
const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;

const body = <P extends Record<string, object>>(properties: P, required: (keyof P & string)[]) =>
  ({ type: 'object', properties, required, additionalProperties: false }) as const;

export const startBody = body(
  {
    steps: {
      type: 'array',
      maxItems: MAX_STEPS,
      items: { anyOf: [{ type: 'string' }, jsonObject()] },
      description: 'the plan',
    },
    user_prompt: text(20_000),
  },
  ['steps', 'user_prompt'],
);

export const updateBody = body(
  {
    session_id: sessionId,
    index: stepIndex,
    status: { type: 'string', enum: ['pending', 'running', 'completed', 'error', 'skipped'] },
  },
  ['session_id', 'index', 'status'],
);

export const statusBody = body({ session_id: sessionId, message: text(10_000), step_index: stepIndex }, [
  'session_id',
  'message',
]);

export const outputBody = body(
  { session_id: sessionId, csv: { ...text(1_000), description: 'path of the CSV file' }, label: text(500) },
  ['session_id', 'csv', 'label'],
);

export const limitBody = body(
  { usd: { type: ['number', 'null'], exclusiveMinimum: 0, maximum: MAX_CAP, description: 'null removes the cap' } },
  ['usd'],
);

export const alertBody = body(
  { message: { type: ['string', 'null'], maxLength: 2_000, description: 'null or empty clears the banner' } },
  ['message'],
);

export const feedbackBody = body({ message: { ...text(10_000), minLength: 1 } }, ['message']);

export const sidParams = {
  type: 'object',
  properties: { sid: sessionId },
  required: ['sid'],
} as const;

const nullableString = { type: ['string', 'null'] } as const;

export const sessionSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    user_prompt: { type: 'string' },
    steps: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          index: { type: 'integer' },
          step: { type: ['string', 'object'], additionalProperties: true },
          status: { type: 'string' },
        },
        required: ['index', 'step', 'status'],
      },
    },
    status: { type: 'string', enum: ['open', 'ended'] },
    message: nullableString,
    step_index: { type: ['integer', 'null'] },
    alert: nullableString,
    outputs: {
      type: 'array',
      items: {
        type: 'object',
        properties: { csv: { type: 'string' }, label: { type: 'string' }, created_at: { type: 'string' } },
        required: ['csv', 'label', 'created_at'],
      },
    },
    cap_usd: { type: ['number', 'null'], description: 'null = no cap' },
    spent_usd: { type: 'number' },
    created_at: { type: 'string', format: 'date-time' },
    ended_at: { type: ['string', 'null'] },
  },
  required: ['id', 'steps', 'status', 'cap_usd', 'spent_usd'],
} as const;

export const sessionResponses = { 200: sessionSchema, ...errorsOf(400, 403, 404, 413, 415) };
