import { z } from 'zod';
import { env, loadConfig } from '@rde/platform';
import { GRANT_CREDITS_MAX } from '@rde/proto';
import { wellFormedKey } from './domain/inputs';
import { CLAIM_TTL_MS, MAGIC_LINK_TTL_MS } from './domain/sign-in';

const vendors = z.record(
  z.string().regex(/^[a-z0-9_]{1,40}$/),
  z.object({
    issuer: z.string().url(),
    authorization_endpoint: z.string().url(),
    token_endpoint: z.string().url(),
    scope: z.string().min(1),
    client_id: z.string().min(1).optional(),
    client_secret: z.string().min(1).optional(),
  }),
);

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The auth service's variables (its module declares them: decision 0058). */
export const AUTH_VARIABLES = {
  RDE_RPC_DEADLINE_MS: env.milliseconds(10_000),
  /** The dev workspace owner's key; setting it also turns the dev workspace on outside all-in-one. */
  RDE_DEV_API_KEY: wellFormedKey.optional(),
  /** Credits the dev workspace is granted once, when it is first ensured (decision 0051); 0 = none. */
  RDE_DEV_GRANT_CREDITS: z.coerce.number().int().min(0).max(GRANT_CREDITS_MAX).default(10_000),
  /** Where sign-in, set-password and invite emails go out (`smtp://user:pass@host:587`, `smtps://…`). Unset: logged, for development only. */
  RDE_SMTP_URL: env.url().optional(),
  RDE_MAIL_FROM: z.string().min(3).default('RDE <no-reply@rde.local>'),
  /** The dashboard that emailed links open (it posts the token back to the API). */
  RDE_DASHBOARD_URL: env.url().optional(),
  /** Unset RDE_DASHBOARD_URL: the gateway's own dashboard at its public URL or port (decision 0068). */
  RDE_PUBLIC_URL: env.url().optional(),
  PORT: env.port(8080),
  /** The inbox support-widget submissions are emailed to. */
  RDE_SUPPORT_INBOX: z.string().email().default('support@rde.local'),
  /** An issue tracker's webhook that signed-in technical support reports are POSTed to; unset = none. */
  RDE_ISSUE_WEBHOOK_URL: env.url().optional(),
  /** How long an emailed sign-in link and its code stay usable. */
  RDE_MAGIC_LINK_TTL_MS: env.milliseconds(MAGIC_LINK_TTL_MS),
  /** How long a CLI claim waits for its approval and its poll. */
  RDE_CLI_CLAIM_TTL_MS: env.milliseconds(CLAIM_TTL_MS),
  /** The external identity provider ("Google"): off unless a client id is set. */
  RDE_GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  RDE_GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  RDE_GOOGLE_ISSUER: env.url().default('https://accounts.google.com'),
  /** The callback URL registered with the provider; by default the URL the browser reached the gateway at. */
  RDE_GOOGLE_REDIRECT_URL: env.url().optional(),
  /** Derives PKCE verifiers and nonces from OAuth states; every auth replica needs the same one. Unset: random per process. */
  RDE_AUTH_SECRET: z.string().min(32).optional(),
  /**
   * CRM/ATS providers with OAuth connect, as JSON: {"<provider>": {issuer,
   * authorization_endpoint, token_endpoint, scope, client_id?, client_secret?}}; the client
   * pair is the service's managed app. Unset: no provider has OAuth config (404).
   */
  RDE_INTEGRATIONS: z
    .string()
    .default('{}')
    .transform((text, context) => {
      const parsed = vendors.safeParse(safeJson(text));
      if (parsed.success) return parsed.data;
      context.addIssue({ code: 'custom', message: `must be a JSON object of providers: ${parsed.error.message}` });
      return z.NEVER;
    }),
  /** AES-256-GCM keys for secrets at rest: `id:base64key[,id:base64key…]`, the first seals. Unset: a random key per process (development only). */
  RDE_SECRETS_KEYRING: z.string().optional(),
  /** CLI sign-ins one address may start per minute; 0 = no limit. */
  RDE_CLI_START_PER_IP_PER_MINUTE: z.coerce.number().int().min(0).default(0),
};

export function authConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(AUTH_VARIABLES, variables);
}

export type AuthConfig = ReturnType<typeof authConfig>;
