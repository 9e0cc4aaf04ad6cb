/** JSON schemas of the member routes (decision 0087): validation, serialization and /openapi.json. */
import { errorResponses } from '../../contract';

export const ROLES = ['owner', 'member'] as const;

export const memberParams = {
  type: 'object',
  properties: {
    user_id: { type: 'string', minLength: 1, maxLength: 128, description: 'the member’s user id (`usr_…`)' },
  },
  required: ['user_id'],
} as const;

export const roleBody = {
  type: 'object',
  properties: { role: { type: 'string', enum: ROLES } },
  required: ['role'],
  additionalProperties: false,
} as const;

/** A member as the member list shows them (the spec's member spend cap row, with the email). */
export const memberRow = {
  type: 'object',
  properties: {
    user_id: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string', enum: ROLES },
    cap_usd: { type: ['number', 'null'], description: 'null = uncapped' },
    spent_30d_usd: { type: 'number' },
  },
  required: ['user_id', 'email', 'role', 'cap_usd', 'spent_30d_usd'],
} as const;

/** 403 owner only (or, removing, not yourself); 404 not a member; 409 the last owner. */
export const memberErrors = errorResponses(403, 404, 409);
