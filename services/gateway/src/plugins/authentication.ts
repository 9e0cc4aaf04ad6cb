import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors, type Caller, type Clock } from '@rde/platform';
import type { Clients } from '../clients';

declare module 'fastify' {
  interface FastifyRequest {
    /** The resolved caller of a protected route. */
    caller: Caller;
  }
  interface FastifyContextConfig {
    /** Routes of the spec's public set skip bearer resolution. */
    public?: boolean;
  }
}

/** The header naming the agent session a call belongs to (decision 0021). */
export const SESSION_HEADER = 'x-session-id';

export interface AuthenticationOptions {
  readonly clients: Clients;
  readonly clock: Clock;
  /** How long a resolved bearer is trusted without asking auth again (revocation delay). */
  readonly cacheMs: number;
}

/**
 * Every matched route except the public set requires `Authorization: Bearer <key>`, resolved by
 * the auth service (with the `X-Workspace-Id` switch) and cached briefly by token hash.
 */
export function registerAuthentication(app: FastifyInstance, options: AuthenticationOptions): void {
  const cache = new Map<string, { caller: Caller; until: number }>();
  app.decorateRequest('caller', undefined as unknown as Caller);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.url === undefined || request.routeOptions.config.public) return;
    const token = bearerOf(request);
    if (!token) throw errors.unauthenticated();
    const switchTo = headerOf(request, 'x-workspace-id');
    const key = createHash('sha256').update(`${token}\n${switchTo}`).digest('hex');
    const now = options.clock.now();
    const cached = cache.get(key);
    let caller = cached && cached.until > now ? cached.caller : undefined;
    if (!caller) {
      caller = (await options.clients.auth.resolveBearer({ token, workspaceId: switchTo })).caller!;
      if (options.cacheMs > 0) {
        if (cache.size > 10_000) cache.clear();
        cache.set(key, { caller, until: now + options.cacheMs });
      }
    }
    // Metered calls accrue to the session the header names (a body `session_id` overrides it).
    request.caller = { ...caller, requestId: request.id, sessionId: headerOf(request, SESSION_HEADER) };
  });
}

function bearerOf(request: FastifyRequest): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headerOf(request, 'authorization'));
  return match ? match[1] : '';
}

function headerOf(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}
