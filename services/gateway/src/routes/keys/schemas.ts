/** JSON schemas of the key routes: they validate requests (422 on failure) and feed /openapi.json. */

import { errorResponses, pathParamsSchema } from '../../contract';

/** Only the owner may revoke another member's key; the shared statuses come from the contract. */
export const keyErrors = errorResponses(403);

const keyId = { type: 'string', description: 'the key id (`key_…`)' } as const;
const keyName = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  description: 'what the key is for, shown in listings',
} as const;
const prefix = { type: 'string', description: 'the non-secret start of the key, to recognise it' } as const;
const createdAt = { type: 'string', format: 'date-time' } as const;

export const createKeyBody = {
  type: 'object',
  properties: { name: keyName },
  required: ['name'],
  additionalProperties: false,
} as const;

export const createdKey = {
  type: 'object',
  properties: {
    id: keyId,
    name: { type: 'string' },
    key: { type: 'string', description: 'the plaintext key: shown this once, never again' },
    prefix,
    created_at: createdAt,
  },
  required: ['id', 'name', 'key', 'prefix', 'created_at'],
} as const;

export const keyList = {
  type: 'object',
  properties: {
    keys: {
      type: 'array',
      description: "every live key of the workspace, members' and owner's; metadata only",
      items: {
        type: 'object',
        properties: {
          id: keyId,
          name: { type: 'string' },
          prefix,
          created_by: { type: 'string', description: 'the user the key acts as, who minted it' },
          created_at: createdAt,
          last_used_at: {
            type: ['string', 'null'],
            format: 'date-time',
            description: 'to the minute; null when never used',
          },
        },
        required: ['id', 'name', 'prefix', 'created_by', 'created_at', 'last_used_at'],
      },
    },
  },
  required: ['keys'],
} as const;

export const keyParams = pathParamsSchema('key_id', { description: keyId.description });

export const revokedKey = {
  type: 'object',
  properties: { id: keyId, revoked: { type: 'boolean', const: true } },
  required: ['id', 'revoked'],
} as const;
