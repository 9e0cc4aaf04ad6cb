import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpError, RdeError } from '@rde/platform';
import { mcpOAuth } from '@rde/proto';
import { refuseOtherBodies } from '../../body';
import type { GatewayDependencies } from '../../dependencies';
import { AUTHORIZE_PATH, authorizeRoutes } from './authorize';
import { consentRoutes } from './consent';
import { acceptFormBodies, declared, FORM_CONTENT_TYPE, oauthRefusal, type Form } from './oauth-forms';
import { issuerOf, MCP_PATH, PROTECTED_RESOURCE_PATH, resourceOf, SCOPES } from './index';
import {
  authorizationServerMetadata,
  clientAuthenticationRefused,
  emptyBody,
  oauthErrorBody,
  protectedResourceMetadata,
  rateLimitedBody,
  registeredClient,
  registrationBody,
  revocationForm,
  tokenForm,
  tokenResponse,
} from './oauth-schemas';

const open = { public: true } as const;
const OAUTH_PATH = `${MCP_PATH}/oauth`;

/**
 * The MCP endpoint's OAuth 2.0 authorization server (decision 0029): metadata (RFC 9728, RFC 8414),
 * authorization, registration (RFC 7591), token and revocation (RFC 7009). The gateway translates;
 * the mcp service holds clients, grants and tokens.
 */
export async function mcpOAuthRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { mcpOAuth: oauth } = deps.clients;

  app.get(
    PROTECTED_RESOURCE_PATH,
    { config: open, schema: { response: { 200: protectedResourceMetadata } } },
    async () => ({
      resource: resourceOf(deps),
      authorization_servers: [issuerOf(deps)],
      scopes_supported: SCOPES,
      bearer_methods_supported: ['header'],
      resource_name: 'RDE',
    }),
  );

  app.get(
    '/.well-known/oauth-authorization-server',
    { config: open, schema: { response: { 200: authorizationServerMetadata } } },
    async () => {
      const issuer = issuerOf(deps);
      return {
        issuer,
        authorization_endpoint: `${issuer}${AUTHORIZE_PATH}`,
        token_endpoint: `${issuer}${OAUTH_PATH}/token`,
        registration_endpoint: `${issuer}${OAUTH_PATH}/register`,
        revocation_endpoint: `${issuer}${OAUTH_PATH}/revoke`,
        scopes_supported: SCOPES,
        response_types_supported: ['code'],
        // Only query responses: RFC 8414's default also names `fragment`, which this server never uses.
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        revocation_endpoint_auth_methods_supported: ['none'],
        authorization_response_iss_parameter_supported: true,
        // A client_id may be the https URL of the client's metadata document (decision 0078).
        client_id_metadata_document_supported: true,
      };
    },
  );

  await app.register(async (scope) => {
    // RFC 7591 §3: the metadata is JSON; anything else is refused in RFC 7591's error format.
    refuseOtherBodies(scope, oauthRefusal('invalid_client_metadata', 'The client metadata must be application/json'));
    scope.post(
      `${OAUTH_PATH}/register`,
      {
        config: open,
        attachValidation: true,
        schema: {
          body: registrationBody,
          response: { 201: registeredClient, 400: oauthErrorBody, 415: oauthErrorBody, 429: rateLimitedBody },
        },
      },
      async (request, reply) => {
        refuseMalformed(request, 'invalid_client_metadata');
        const { clientJson } = await withRetryAfter(reply, () =>
          oauth.registerClient({ metadataJson: Buffer.from(JSON.stringify(request.body)), from: { ip: request.ip } }),
        );
        return reply
          .code(201)
          .header('cache-control', 'no-store')
          .send(JSON.parse(Buffer.from(clientJson).toString('utf8')));
      },
    );
  });

  await authorizeRoutes(app, deps);
  await consentRoutes(app, deps);

  await app.register(async (scope) => {
    acceptFormBodies(scope);
    // RFC 6749 §5.1: token responses, errors included, are never cached.
    scope.addHook(
      'onSend',
      async (_request, reply) => void reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }),
    );

    scope.post<{ Body: Form }>(
      `${OAUTH_PATH}/token`,
      formEndpoint(tokenForm, {
        200: tokenResponse,
        400: oauthErrorBody,
        401: clientAuthenticationRefused,
        429: rateLimitedBody,
      }),
      async (request, reply) => {
        if (request.headers.authorization !== undefined) return refuseClientAuthentication(request, reply, deps);
        refuseMalformed(request, 'invalid_request');
        const { tokenJson } = await withRetryAfter(reply, () =>
          oauth.exchangeToken({
            ...mcpOAuth.ExchangeTokenRequest.fromJSON(declared(request.body, tokenForm)),
            from: { ip: request.ip },
          }),
        );
        return sendJson(reply, tokenJson);
      },
    );

    scope.post<{ Body: Form }>(
      `${OAUTH_PATH}/revoke`,
      formEndpoint(revocationForm, { 200: emptyBody, 400: oauthErrorBody }),
      async (request, reply) => {
        refuseMalformed(request, 'invalid_request');
        await oauth.revokeToken(mcpOAuth.RevokeTokenRequest.fromJSON(declared(request.body, revocationForm)));
        return reply.code(200).send();
      },
    );
  });
}

/**
 * A public endpoint taking a form (token, revocation): its validation failures reach the handler,
 * which answers them in OAuth's error shape.
 */
function formEndpoint<Body, Responses>(body: Body, response: Responses) {
  return { config: open, attachValidation: true, schema: { consumes: [FORM_CONTENT_TYPE], body, response } };
}

/**
 * RFC 6749 §5.2: a client that authenticated with the `Authorization` header gets 401 with a
 * challenge in its scheme. Every client here is public (`none`): its client_id goes in the form.
 */
function refuseClientAuthentication(request: FastifyRequest, reply: FastifyReply, deps: GatewayDependencies) {
  const scheme = /^\S+/.exec(request.headers.authorization ?? '')?.[0] ?? 'Basic';
  const description = 'Clients of this server are public: send client_id in the form, and no Authorization header';
  return reply
    .code(401)
    .header('www-authenticate', `${scheme} realm="${issuerOf(deps)}", error="invalid_client"`)
    .send({ detail: description, error: 'invalid_client', error_description: description });
}

/**
 * A body the route's schema refuses is an OAuth error (RFC 6749 §5.2 `invalid_request`, RFC 7591
 * §3.2.2 `invalid_client_metadata`), 400 with `error`, as a client library expects, not a 422.
 */
function refuseMalformed(request: FastifyRequest, error: string): void {
  const refused = request.validationError;
  if (!refused) return;
  throw httpError(400, oauthRefusal(error, refused.message));
}

/** A rate-limited answer tells the client when to come back (RFC 6585 §4): the service's `retry_after`. */
async function withRetryAfter<T>(reply: FastifyReply, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof RdeError && error.httpStatus === 429 && Number.isInteger(error.body.retry_after)) {
      void reply.header('retry-after', String(error.body.retry_after));
    }
    throw error;
  }
}

function sendJson(reply: FastifyReply, json: Uint8Array) {
  return reply.type('application/json; charset=utf-8').send(Buffer.from(json));
}
