import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The variables a module reads, each with what it must be; `rde start` checks every module's before any starts. */
export type ConfigShape = z.ZodRawShape;

/**
 * Reads a typed configuration from environment variables. Every variable is validated at once so
 * the start-up message names each bad or missing one, not just the first.
 */
export function loadConfig<S extends ConfigShape>(shape: S, env: NodeJS.ProcessEnv): z.infer<z.ZodObject<S>> {
  const result = parsed(shape, env);
  if (!result.success) throw new ConfigError(problemsOf(shape, result.error, env));
  return result.data;
}

/** What is wrong with `env` for `shape`: one line per problem, none when it is valid. */
export function configProblems(shape: ConfigShape, env: NodeJS.ProcessEnv): string[] {
  const result = parsed(shape, env);
  return result.success ? [] : problemsOf(shape, result.error, env);
}

function parsed<S extends ConfigShape>(shape: S, env: NodeJS.ProcessEnv) {
  return z.object(shape).safeParse(pickDefined(env, Object.keys(shape)));
}

/** Each variable once (a number can fail two checks), saying what is expected where a helper below describes it. */
function problemsOf(shape: ConfigShape, error: z.ZodError, env: NodeJS.ProcessEnv): string[] {
  const problems = error.issues.map((issue) => {
    const variable = String(issue.path[0]);
    const value = env[variable];
    const expected = shape[variable]?.description ?? issue.message;
    return value === undefined || value === ''
      ? `${variable} is required: ${expected}`
      : `${variable}=${JSON.stringify(value)} is invalid: ${expected}`;
  });
  return [...new Set(problems)];
}

function pickDefined(env: NodeJS.ProcessEnv, keys: string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const key of keys) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  return picked;
}

const portNumber = () =>
  z.coerce.number().int().min(0).max(65535).describe('expected a port, 0 to 65535 (0 = any free port)');

/** Reusable variable types, each described so a bad value's message says what is expected. */
export const env = {
  port: (fallback: number) => portNumber().default(fallback),
  optionalPort: () => portNumber().optional(),
  url: () => z.string().url().describe('expected an absolute URL, such as https://host/'),
  milliseconds: (fallback: number) =>
    z.coerce.number().int().min(0).describe('expected whole milliseconds, 0 or more').default(fallback),
  /** A positive whole number: a limit, a batch size. */
  count: (fallback: number) =>
    z.coerce.number().int().min(1).describe('expected a whole number, 1 or more').default(fallback),
  flag: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'])
      .describe('expected true, false, 1 or 0')
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1'),
};

/**
 * Binds with `listen`; a port another process holds becomes a ConfigError naming the variable
 * that sets it, instead of a library's EADDRINUSE stack trace.
 */
export async function listenOn<T>(variable: string, port: number, listen: () => Promise<T>): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    throw new ConfigError([`${variable}=${port}: the port is in use; set ${variable} to a free port (0 = any)`]);
  }
}

function isAddressInUse(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  // grpc-js reports a taken port only in its message.
  return code === 'EADDRINUSE' || (typeof message === 'string' && message.includes('EADDRINUSE'));
}

/** Where the gateway serves the dashboard (decision 0068). */
export const DASHBOARD_PATH = '/app/';

/**
 * RDE_DASHBOARD_URL unset: the gateway's own dashboard, at RDE_PUBLIC_URL or else this host at
 * the gateway's port (the all-in-one's default origin).
 */
export function ownDashboardUrl(publicUrl: string | undefined, port: number): string {
  return new URL(DASHBOARD_PATH, publicUrl ?? `http://127.0.0.1:${port}`).href;
}
