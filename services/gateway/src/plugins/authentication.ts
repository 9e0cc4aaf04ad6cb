import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, RdeError, type Caller, type Clock, type NotAuthenticatedReason } from '@rde/platform';
import type { Clients } from '../clients';
import { SESSION_COOKIE } from '../session-cookie';
import { BearerCache } from './bearer-cache';

declare module 'fastify' {
  interface FastifyRequest {
    /** The resolved caller of a protected route (an optional-bearer route: undefined when anonymous). */
    caller: Caller;
    /** The bearer the caller sent, header or session cookie: what logout revokes. */
    bearerToken: string;
  }
  interface FastifyInstance {
    /** Drops a bearer's cached resolutions (after logout), so this gateway stops trusting it at once. */
    forgetBearer(token: string): void;
  }
  interface FastifyContextConfig {
    /** Routes of the spec's public set skip bearer resolution. */
    public?: boolean;
    /** Routes with an optional bearer: resolved when one is sent, anonymous when none or a stale one is. */
    optionalBearer?: boolean;
    /**
     * OAuth-protected resources (the MCP endpoint): only an `Authorization` header counts, and a 401
     * carries the RFC 6750 / RFC 9728 challenge that drives discovery.
     */
    bearerChallenge?: (request: FastifyRequest, tokenSent: boolean) => BearerChallenge;
    /**
     * Bearers a challenge route resolves itself before auth's API keys (the MCP endpoint's OAuth
     * access tokens, never cached: a revocation holds at once); undefined when not one of its own.
     */
    ownBearer?: (request: FastifyRequest, token: string) => Promise<Caller | undefined>;
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

export interface BearerChallenge {
  readonly header: string;
  /** The spec's error body (`detail`), with RFC 6750's `error` and `error_description` for a bad token. */
  readonly body: Record<string, string>;
}

/**
 * Every matched route except the public set requires a bearer: `Authorization: Bearer <key>`, or
 * the browser's session cookie. Auth resolves it (with the `X-Workspace-Id` switch); resolutions
 * are cached briefly per token hash, and concurrent misses share one auth call (bearer-cache.ts).
 */
export function registerAuthentication(app: FastifyInstance, options: AuthenticationOptions): void {
  const cache = new BearerCache(
    async (token, workspaceId) => (await options.clients.auth.resolveBearer({ token, workspaceId })).caller!,
    options.clock,
    options.cacheMs,
  );
  app.decorateRequest('caller', undefined as unknown as Caller);
  app.decorateRequest('bearerToken', '');
  app.decorate('forgetBearer', (token: string) => cache.forget(token));
  app.addHook('onRequest', async (request, reply) => {
    const { url, config } = request.routeOptions;
    if (url === undefined || config.public) return;
    if (config.bearerChallenge) return challengeUnlessResolved(request, reply, config);
    const credential = credentialOf(request);
    if ('unusable' in credential) {
      if (config.optionalBearer) return;
      throw errors.notAuthenticated(credential.unusable);
    }
    request.bearerToken = credential.token;
    try {
      const caller = await cache.resolve(request.bearerToken, headerOf(request, 'x-workspace-id'));
      // Metered calls accrue to the session the header names (a body `session_id` overrides it).
      request.caller = { ...caller, requestId: request.id, sessionId: headerOf(request, SESSION_HEADER) };
    } catch (error) {
      if (!(error instanceof RdeError && error.httpStatus === 401)) throw error;
      if (config.optionalBearer) return;
      // Auth answers a key and a browser session alike; a browser is told to sign in again.
      throw credential.fromCookie ? errors.notAuthenticated('session_ended') : error;
    }
  });

  const challengeUnlessResolved = async (
    request: FastifyRequest,
    reply: FastifyReply,
    config: FastifyContextConfig,
  ) => {
    request.bearerToken = bearerOf(request);
    try {
      if (request.bearerToken) {
        const caller =
          (await config.ownBearer?.(request, request.bearerToken)) ??
          (await cache.resolve(request.bearerToken, headerOf(request, 'x-workspace-id')));
        request.caller = { ...caller, requestId: request.id };
        return;
      }
    } catch (error) {
      if (!(error instanceof RdeError && error.httpStatus === 401)) throw error;
    }
    const challenge = config.bearerChallenge!(request, request.bearerToken !== '');
    return reply.code(401).header('www-authenticate', challenge.header).send(challenge.body);
  };
}

/** The bearer a request carries (its Authorization header, else the session cookie), or why it has none. */
type Credential = { token: string; fromCookie: boolean } | { unusable: NotAuthenticatedReason };

function credentialOf(request: FastifyRequest): Credential {
  const token = bearerOf(request);
  if (token) return { token, fromCookie: false };
  const cookie = request.cookies?.[SESSION_COOKIE] ?? '';
  if (cookie) return { token: cookie, fromCookie: true };
  const authorization = headerOf(request, 'authorization').trim();
  if (/^Bearer$/i.test(authorization)) return { unusable: 'empty_bearer' };
  if (authorization) return { unusable: 'not_bearer' };
  return { unusable: headerOf(request, 'x-api-key') ? 'api_key_header' : 'missing' };
}

function bearerOf(request: FastifyRequest): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headerOf(request, 'authorization'));
  return match ? match[1] : '';
}

function headerOf(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}
