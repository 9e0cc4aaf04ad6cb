import { randomBytes } from 'node:crypto';
import { errors } from '@rde/platform';

/** `ses_` and 32 hex digits; the id also becomes a field name of the account (`sessions.<id>`). */
const SESSION_ID = /^ses_[0-9a-f]{32}$/;

export const STEP_STATUSES = ['pending', 'running', 'completed', 'error', 'skipped'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export function newSessionId(): string {
  return `ses_${randomBytes(16).toString('hex')}`;
}

/** The spec's 400 for an id that is not a `ses_` id from start. */
export function requireSessionId(id: string): string {
  if (!SESSION_ID.test(id)) {
    throw errors.badRequest({
      detail: { reason: 'invalid_session_id', message: 'session_id must be the ses_ id returned by /session/start' },
    });
  }
  return id;
}

export function isStepStatus(status: string): status is StepStatus {
  return (STEP_STATUSES as readonly string[]).includes(status);
}
