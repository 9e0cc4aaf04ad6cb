import { z } from 'zod';
import { errors } from '@rde/platform';
import { KEY_PREFIX, WELL_FORMED_KEY } from './api-key';
import { ROLES } from './roles';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './passwords';

/** A display name: what the key routes' JSON schema accepts too, so both layers agree. */
const displayName = z.string().max(100).regex(/\S/, 'must contain a non-space character');

/** Proto strings are '' when unset; an optional field treats '' as absent. */
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/**
 * The address grammar of JSON Schema's `email` format as the gateway checks it (ajv-formats, full
 * mode), so an address the published contract accepts is never refused here.
 */
const EMAIL_ADDRESS =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

export const email = z.string().trim().toLowerCase().max(254).regex(EMAIL_ADDRESS, 'must be an email address');

export const wellFormedKey = z
  .string()
  .regex(WELL_FORMED_KEY, `must be ${KEY_PREFIX} followed by 24 to 128 letters, digits, - or _`);

export const createKeyInput = z.object({ name: displayName });

export const createWorkspaceInput = z.object({
  ownerEmail: email,
  name: optional(displayName),
  keyPlaintext: optional(wellFormedKey),
});

export const addMemberInput = z.object({
  workspaceId: z.string().min(1),
  email,
  role: optional(z.enum(ROLES)).transform((role) => role ?? 'member'),
});

export const removeMemberInput = z.object({ workspaceId: z.string().min(1), email });

export const changeRoleInput = z.object({ userId: z.string(), role: z.enum(ROLES) });

/** Parses a request, or refuses it with the spec's 422 `detail` list before anything changes. */
export function parseInput<T extends z.ZodTypeAny>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw errors.validation(
    result.error.issues.map((issue) => ({ loc: ['body', ...issue.path], msg: issue.message, type: issue.code })),
  );
}

const optionalText = (max: number) => optional(z.string().max(max));

export const externalSignInInput = z.object({
  cliToken: optionalText(200),
  next: optionalText(2048),
  inviteCode: optionalText(200),
});

export const signInRequestInput = externalSignInInput.extend({ email });

export const verifyCodeInput = z.object({ email, code: z.string().trim().max(32) });

export const passwordInput = z.object({
  token: z.string().max(200),
  password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
});

export const loginInput = z.object({
  email,
  password: z.string().max(PASSWORD_MAX_LENGTH),
  cliToken: optionalText(200),
});

export const feedbackInput = z.object({
  message: z.string().max(20_000).regex(/\S/, 'must contain a non-space character'),
  category: optional(z.string().max(50)).transform((category) => category ?? 'general'),
});

export const supportInput = feedbackInput.extend({ email: optional(email) });

export const integrationAppInput = z.object({
  clientId: z.string().min(1).max(500),
  clientSecret: z.string().min(1).max(2000),
});
