/** JSON schemas of the sign-in and claim routes: request validation (422) and /openapi.json. */
import { allRequired, errorBody, okResult, strictBody } from '../../contract';

/**
 * The spec's 400 for a link or code that cannot be spent, `detail` {reason, message}, or the
 * contract's plain 400 for a body that is not JSON at all.
 */
const spendFailure = {
  type: 'object',
  properties: {
    detail: {
      anyOf: [
        {
          type: 'object',
          properties: { reason: { type: 'string' }, message: { type: 'string' } },
          required: ['reason', 'message'],
        },
        { type: 'string' },
      ],
    },
  },
  required: ['detail'],
} as const;

export const publicErrors = { 422: errorBody, 429: errorBody } as const;
export const mailErrors = { ...publicErrors, 502: errorBody } as const;
export const spendErrors = { 400: spendFailure, ...publicErrors } as const;
export const claimErrors = { 404: errorBody, 409: errorBody, 422: errorBody } as const;
export const bearerErrors = { 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: errorBody } as const;

const email = { type: 'string', format: 'email', maxLength: 254 } as const;
const secret = { type: 'string', minLength: 1, maxLength: 200 } as const;
const cliToken = { ...secret, description: 'a waiting CLI claim id this sign-in approves' } as const;
const next = {
  type: 'string',
  maxLength: 2048,
  description: 'where the browser goes afterwards; only a same-origin path is kept',
} as const;
const inviteCode = { ...secret, description: 'an invite code: joins (and signs in to) the invited workspace' } as const;

export const signInRequestBody = {
  type: 'object',
  properties: { email, cli_token: cliToken, next, invite_code: inviteCode },
  required: ['email'],
  additionalProperties: false,
} as const;

export const verifyBody = {
  type: 'object',
  properties: { token: { type: 'string', maxLength: 200, description: 'the token of the emailed link' } },
  additionalProperties: false,
} as const;

export const verifyCodeBody = strictBody({
  email,
  code: { type: 'string', maxLength: 32, description: 'the 6-digit code of the email' },
});

export const completeBody = strictBody({
  token: secret,
  password: { type: 'string', minLength: 10, maxLength: 256, description: 'at least 10 characters' },
});

export const loginBody = {
  type: 'object',
  properties: { email, password: { type: 'string', maxLength: 256 }, cli_token: cliToken },
  required: ['email', 'password'],
  additionalProperties: false,
} as const;

export const anyBody = { type: 'object', additionalProperties: true } as const;

export const approveBody = {
  type: 'object',
  properties: { claim_id: secret, invite_code: inviteCode },
  required: ['claim_id'],
  additionalProperties: false,
} as const;

export const claimParams = allRequired({ claim_id: secret });

export const claimPageQuery = {
  type: 'object',
  properties: { ref: { type: 'string', maxLength: 200 } },
} as const;

export const sentSchema = okResult({ email: { type: 'string' } });

export const pendingSchema = okResult({ pending: { type: 'boolean', const: true }, email: { type: 'string' } });

export const signedInSchema = {
  type: 'object',
  properties: {
    ok: { type: 'boolean', const: true },
    kind: { type: 'string', enum: ['cli', 'session', 'set_password'] },
    cli_token: { type: 'string' },
    session: allRequired({
      user_id: { type: 'string' },
      email: { type: 'string' },
      workspace_id: { type: 'string' },
      expires_at: { type: 'string', format: 'date-time' },
    }),
    next_url: { type: 'string' },
    set_password_token: { type: 'string', description: 'kind set_password: the token to set the password with' },
  },
  required: ['ok', 'kind'],
} as const;

export const claimStartedSchema = allRequired({
  claim_id: { type: 'string', description: 'the claim token: keep it secret, it fetches the bearer' },
  approval_url: { type: 'string' },
  poll_url: { type: 'string' },
  expires_at: { type: 'string', format: 'date-time' },
});

export const approvedSchema = okResult({
  status: { type: 'string', const: 'approved' },
  workspace_id: { type: 'string' },
});

export const pollSchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['pending', 'approved', 'delivered', 'expired'] },
    token: { type: 'string', description: 'the bearer, on the one poll that finds the claim approved' },
    workspace_id: { type: 'string' },
  },
  required: ['status'],
} as const;

export const okSchema = okResult({});

export const redirectSchema = { type: 'null', description: 'redirect to the sign-in page' } as const;

export const externalStartQuery = {
  type: 'object',
  properties: { cli_token: cliToken, next, invite_code: inviteCode },
} as const;

/** Unbounded on purpose: whatever arrives, a failure bounces to the sign-in page, never a 422. */
export const externalCallbackQuery = {
  type: 'object',
  properties: { state: { type: 'string' }, code: { type: 'string' }, error: { type: 'string' } },
} as const;
