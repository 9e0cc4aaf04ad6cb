/** JSON schemas of the workspace invite routes. */
import { errorBody } from '../../contract';

export const errorResponses = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  422: errorBody,
  502: errorBody,
} as const;

export const createInviteBody = {
  type: 'object',
  properties: {
    // Any string: an invalid email is the spec's 400 from the auth service, not a 422.
    email: { type: 'string', maxLength: 320 },
    spend_cap_usd: {
      type: ['number', 'null'],
      exclusiveMinimum: 0,
      description: "the member's rolling 30-day cap in USD, applied when the invite is accepted; null = none",
    },
  },
  required: ['email'],
  additionalProperties: false,
} as const;

const invite = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    spend_cap_usd: { type: ['number', 'null'] },
    invited_by: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    accepted_at: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['id', 'email', 'spend_cap_usd', 'invited_by', 'created_at', 'accepted_at'],
} as const;

export const inviteList = {
  type: 'object',
  properties: {
    invites: { type: 'array', items: invite },
    seat_available: { type: 'boolean', const: true, description: 'every plan allows unlimited members' },
  },
  required: ['invites', 'seat_available'],
} as const;

export const createdInvite = {
  type: 'object',
  properties: {
    invite,
    invite_code: {
      type: 'string',
      description: 'shown once (and emailed to the invitee): binds a CLI approval to this workspace',
    },
  },
  required: ['invite', 'invite_code'],
} as const;
