/** JSON schemas of the feedback and support routes. */

import { pageOffset, errorBody } from '../../contract';

export const errorResponses = { 401: errorBody, 422: errorBody } as const;
export const supportErrors = { 422: errorBody, 502: errorBody } as const;

const message = {
  type: 'string',
  minLength: 1,
  maxLength: 20_000,
  pattern: '\\S',
  description: 'the report; its first line is its title',
} as const;
const category = {
  type: 'string',
  minLength: 1,
  maxLength: 50,
  description: 'e.g. `technical`, `billing`, `idea`',
} as const;

export const feedbackBody = {
  type: 'object',
  properties: { message, category },
  required: ['message'],
  additionalProperties: false,
} as const;

export const supportBody = {
  type: 'object',
  properties: {
    message,
    category,
    email: { type: 'string', format: 'email', maxLength: 254, description: 'reply address of an anonymous sender' },
  },
  required: ['message'],
  additionalProperties: false,
} as const;

export const pageQuery = {
  type: 'object',
  properties: {
    offset: pageOffset,
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
  },
  additionalProperties: false,
} as const;

const report = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    title: { type: 'string', description: "the report's first line" },
    message: { type: 'string' },
    category: { type: 'string' },
    user_id: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'title', 'message', 'category', 'user_id', 'created_at'],
} as const;

export const createdReport = report;

export const reportPage = {
  type: 'object',
  properties: {
    feedback: { type: 'array', items: report, description: 'newest first' },
    total: { type: 'integer' },
    offset: { type: 'integer' },
    limit: { type: 'integer' },
  },
  required: ['feedback', 'total', 'offset', 'limit'],
} as const;

export const supportReceipt = {
  type: 'object',
  properties: {
    ok: { type: 'boolean', const: true },
    stored: { type: 'boolean', description: 'true when a signed-in technical report was also stored as feedback' },
  },
  required: ['ok', 'stored'],
} as const;
