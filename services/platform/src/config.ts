import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads a typed configuration from environment variables. Every variable is validated at once so
 * the start-up message names each bad or missing one, not just the first.
 */
export function loadConfig<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(pickDefined(env, Object.keys(shape)));
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const variable = String(issue.path[0]);
      const value = env[variable];
      return value === undefined || value === ''
        ? `${variable} is required: ${issue.message}`
        : `${variable}=${JSON.stringify(value)} is invalid: ${issue.message}`;
    }),
  );
}

function pickDefined(env: NodeJS.ProcessEnv, keys: string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const key of keys) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  return picked;
}

/** Reusable variable types. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  optionalPort: () => z.coerce.number().int().min(0).max(65535).optional(),
  url: () => z.string().url(),
  milliseconds: (fallback: number) => z.coerce.number().int().min(0).default(fallback),
  /** A positive whole number: a limit, a batch size. */
  count: (fallback: number) => z.coerce.number().int().min(1).default(fallback),
  flag: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1'),
  adapter: () => z.enum(['memory', 'production']).optional(),
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
