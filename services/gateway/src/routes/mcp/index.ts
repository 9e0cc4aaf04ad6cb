import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDependencies } from '../../dependencies';
import type { BearerChallenge } from '../../plugins/authentication';
import { refuseOtherBodies } from '../../body';
import { errorBody, errorResponses } from '../../contract';
import { mcpToolCallKey } from './idempotency';
import { originGuard } from './origin-guard';
import { badRequest, jsonRpcBody, jsonRpcError, jsonRpcResponse, methodNotAllowed } from './schemas';

export const MCP_PATH = '/api/v2/mcp';
export const PROTECTED_RESOURCE_PATH = `/.well-known/oauth-protected-resource${MCP_PATH}`;
/** What every access token of the authorization server starts with (oauth.proto): the rest are API keys. */
const ACCESS_TOKEN_PREFIX = 'rde_mcp_at_';
/** The one scope the authorization server grants: the MCP endpoint's tools. */
export const SCOPES = ['mcp'];
/** A tools/call may walk a provider chain (a search, an enrichment): the REST waterfall routes' deadline. */
const CALL_DEADLINE_MS = 90_000;
/** Request headers the MCP transport reads; everything else (authorization, cookies) stays here. */
const FORWARDED = /^(accept|content-type|mcp-.*|last-event-id)$/;

/**
 * The MCP endpoint (decision 0028): the gateway authenticates the bearer and hands the exchange to
 * the mcp service over gRPC; GET (no server-initiated streams) and DELETE (no sessions) are 405.
 */
export async function mcpRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { mcp, mcpOAuth } = deps.clients;
  // The authorization server's access tokens (decision 0029) resolve in the mcp service, for this resource only.
  const ownBearer = async (_request: FastifyRequest, token: string) =>
    token.startsWith(ACCESS_TOKEN_PREFIX)
      ? (await mcpOAuth.resolveAccessToken({ token, resource: resourceOf(deps) })).caller
      : undefined;
  const guarded = { bearerChallenge: discoveryChallengeOf(deps), ownBearer };
  const onRequest = originGuard(deps);
  // A foreign Host or Origin: the JSON-RPC error the SDK's own check answers.
  const forbidden = { 403: jsonRpcError };

  await app.register(async (scope) => {
    // Streamable HTTP: the body is one JSON-RPC message; any other media type is 415, not a 422.
    refuseOtherBodies(scope, { detail: 'The body must be application/json: a JSON-RPC message' });
    scope.post<{ Body: unknown }>(
      MCP_PATH,
      {
        config: { ...guarded, idempotency: mcpToolCallKey },
        onRequest,
        schema: {
          body: jsonRpcBody,
          response: {
            200: jsonRpcResponse,
            202: { type: 'null' },
            400: badRequest,
            ...forbidden,
            // A tools/call whose idempotency key is still running (its `_meta`, decision 0070).
            409: jsonRpcError,
            ...errorResponses(406, 415),
          },
        },
      },
      async (request, reply) => {
        const served = await mcp.serve(
          {
            method: 'POST',
            url: resourceOf(deps),
            headers: forwardedHeaders(request),
            body: Buffer.from(JSON.stringify(request.body)),
            // A keyed tools/call's run id: the retry after this gateway died joins the same paid call.
            callId: request.idempotentRunId ?? '',
          },
          { caller: request.caller, deadlineMs: CALL_DEADLINE_MS },
        );
        for (const { name, value } of served.headers) if (FORWARDED.test(name)) void reply.header(name, value);
        // A notification's 202 has no body, so no content type either.
        return reply.code(served.status).send(served.body.length > 0 ? Buffer.from(served.body) : undefined);
      },
    );
  });

  app.get(
    MCP_PATH,
    { config: guarded, onRequest, schema: { response: { ...forbidden, 405: methodNotAllowed } } },
    async (_request, reply) => notAllowed(reply),
  );

  app.delete(
    MCP_PATH,
    { config: { public: true }, onRequest, schema: { response: { ...forbidden, 405: methodNotAllowed } } },
    async (_request, reply) => notAllowed(reply),
  );

  app.get(
    '/.well-known/openai-apps-challenge',
    {
      config: { public: true },
      schema: { response: { 200: { type: 'string' }, 404: errorBody } },
    },
    async (_request, reply) => {
      const token = deps.config.RDE_OPENAI_APPS_CHALLENGE;
      if (!token) return reply.code(404).send({ detail: 'Not Found' });
      return reply.type('text/plain; charset=utf-8').send(token);
    },
  );
}

/** No server-initiated streams and no sessions: only POST. */
function notAllowed(reply: FastifyReply) {
  return reply.code(405).header('allow', 'POST').send({ detail: 'Method Not Allowed' });
}

/**
 * RFC 6750 §3 with RFC 9728's `resource_metadata`: no `error` when no token was sent, so a client
 * starts discovery; `invalid_token` when one was sent and is unknown, revoked or expired.
 */
function discoveryChallengeOf(deps: GatewayDependencies) {
  return (_request: FastifyRequest, tokenSent: boolean): BearerChallenge => {
    // `scope` names what to ask for (MCP authorization, scope selection), so a client needs no guess.
    const metadata = `resource_metadata="${issuerOf(deps)}${PROTECTED_RESOURCE_PATH}", scope="${SCOPES.join(' ')}"`;
    if (!tokenSent) return { header: `Bearer ${metadata}`, body: { detail: 'Not authenticated' } };
    const description = 'The access token is invalid, revoked or expired';
    return {
      header: `Bearer error="invalid_token", error_description="${description}", ${metadata}`,
      body: { detail: description, error: 'invalid_token', error_description: description },
    };
  };
}

/** The protected resource clients address: what access tokens are bound to (RFC 8707), from the public URL. */
export function resourceOf(deps: GatewayDependencies): string {
  return `${deps.publicOrigin()}${MCP_PATH}`;
}

/** The authorization server's issuer identifier: the public origin (RFC 8414 metadata at its root). */
export function issuerOf(deps: GatewayDependencies): string {
  return deps.publicOrigin();
}

function forwardedHeaders(request: FastifyRequest) {
  return Object.entries(request.headers)
    .filter(([name, value]) => FORWARDED.test(name) && typeof value === 'string')
    .map(([name, value]) => ({ name, value: value as string }));
}
