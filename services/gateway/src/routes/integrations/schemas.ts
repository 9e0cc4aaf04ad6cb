/** JSON schemas of the CRM/ATS connect routes. */
import { errorBody } from '../../contract';

export const errorResponses = { 400: errorBody, 401: errorBody, 404: errorBody, 422: errorBody } as const;

/** What a provider name can be: the connect routes validate it, the callback redirects otherwise. */
export const PROVIDER_NAME = /^[a-z0-9_]{1,40}$/;

export const providerParams = {
  type: 'object',
  properties: {
    provider: { type: 'string', pattern: PROVIDER_NAME.source, description: 'e.g. `hubspot`, `greenhouse`' },
  },
  required: ['provider'],
} as const;

/** The callback takes any provider and query: every failure redirects, never a JSON error. */
export const callbackParams = {
  type: 'object',
  properties: { provider: { type: 'string' } },
  required: ['provider'],
} as const;

export const credentialsBody = {
  type: 'object',
  properties: {
    client_id: { type: 'string', minLength: 1, maxLength: 500 },
    client_secret: { type: 'string', minLength: 1, maxLength: 2000, description: 'stored encrypted (AES-256-GCM)' },
  },
  required: ['client_id', 'client_secret'],
  additionalProperties: false,
} as const;

export const savedSchema = {
  type: 'object',
  properties: { ok: { type: 'boolean', const: true }, provider: { type: 'string' } },
  required: ['ok', 'provider'],
} as const;

export const consentSchema = {
  type: 'object',
  properties: { url: { type: 'string', description: "the vendor's consent page" } },
  required: ['url'],
} as const;

const integration = {
  type: 'object',
  properties: {
    provider: { type: 'string' },
    app: {
      type: 'string',
      enum: ['workspace', 'managed', 'none'],
      description:
        "the app a connect uses: the workspace's own (saved credentials), the service's managed one, or none yet " +
        '(save credentials before connecting)',
    },
    connected: { type: 'boolean' },
    connected_at: { type: ['string', 'null'], format: 'date-time', description: 'null while not connected' },
  },
  required: ['provider', 'app', 'connected', 'connected_at'],
} as const;

export const integrationList = {
  type: 'object',
  properties: {
    integrations: { type: 'array', items: integration, description: 'every provider with OAuth config, by name' },
  },
  required: ['integrations'],
} as const;

export const disconnectedSchema = {
  type: 'object',
  properties: {
    ok: { type: 'boolean', const: true },
    provider: { type: 'string' },
    was_connected: { type: 'boolean', description: 'false when there was no connection to drop' },
  },
  required: ['ok', 'provider', 'was_connected'],
} as const;

export const redirectSchema = { type: 'null', description: 'redirect to the dashboard integrations page' } as const;
