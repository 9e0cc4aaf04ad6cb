import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '@rde/platform';
import { mcpOAuth } from '@rde/proto';
import type { GatewayDependencies } from '../../dependencies';
import { errorResponses } from '../../contract';
import { SESSION_COOKIE } from '../../session-cookie';
import { consentPage } from './consent-page';
import { issuerOf, resourceOf } from './index';
import { acceptFormBodies, declared } from './oauth-forms';
import { authorizationQuery, consentForm, htmlPage, oauthErrorBody, redirect } from './oauth-schemas';

export const AUTHORIZE_PATH = '/api/v2/mcp/oauth/authorize';
/** The dashboard's sign-in page, on this origin: it returns to `next` once signed in. */
const SIGN_IN_PAGE = '/auth/signin';

type AuthorizationQuery = Partial<Record<keyof typeof authorizationQuery.properties, string>>;
type ConsentForm = AuthorizationQuery & { workspace_id?: string; decision: 'approve' | 'deny' };

/** Nothing on these pages may be framed (clickjacking) or cached. */
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

/** The authorization endpoint: the consent page (GET) and the decision (POST), decision 0029. */
export async function authorizeRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { mcpOAuth: oauth } = deps.clients;
  const open = { public: true } as const;

  app.get<{ Querystring: AuthorizationQuery }>(
    AUTHORIZE_PATH,
    {
      config: open,
      schema: {
        querystring: authorizationQuery,
        response: {
          200: htmlPage,
          302: redirect('not signed in: the sign-in page, which returns here'),
          303: redirect('a refused request, back to the client with `error`, `state` and `iss`'),
          400: oauthErrorBody,
        },
      },
    },
    async (request, reply) => {
      void reply.headers(PAGE_HEADERS);
      const { outcome } = await oauth.reviewAuthorization({
        parameters: parametersOf(request.query),
        context: contextOf(request, deps),
      });
      if (outcome?.$case === 'errorRedirectUrl') return reply.redirect(outcome.value, 303);
      if (outcome?.$case !== 'consent') {
        const next = request.url;
        return reply.redirect(`${SIGN_IN_PAGE}?${new URLSearchParams({ next })}`, 302);
      }
      const echoed = recognized(request.query);
      return reply.type('text/html; charset=utf-8').send(consentPage(outcome.value, echoed, AUTHORIZE_PATH));
    },
  );

  await app.register(async (scope) => {
    acceptFormBodies(scope);
    scope.post<{ Body: ConsentForm }>(
      AUTHORIZE_PATH,
      {
        config: open,
        schema: {
          consumes: ['application/x-www-form-urlencoded'],
          body: consentForm,
          response: {
            303: redirect('back to the client with `code` (or `error`), `state` and `iss`'),
            400: oauthErrorBody,
            ...errorResponses(401, 404),
          },
        },
      },
      async (request, reply) => {
        void reply.headers(PAGE_HEADERS);
        if (crossSite(request, deps))
          throw errors.unauthenticated('Consent is given on RDE’s own consent page, not from another site');
        const { workspace_id: workspaceId = '', decision, ...query } = request.body;
        const { redirectUrl } = await oauth.decideAuthorization({
          parameters: parametersOf(query),
          context: contextOf(request, deps),
          workspaceId,
          approved: decision === 'approve',
        });
        return reply.redirect(redirectUrl, 303);
      },
    );
  });
}

function parametersOf(query: AuthorizationQuery): mcpOAuth.AuthorizationParameters {
  return mcpOAuth.AuthorizationParameters.fromJSON(declared(query, authorizationQuery));
}

/** The authorization parameters the request carried, without the ones this server ignores: what the consent form posts back. */
function recognized(query: AuthorizationQuery): Record<string, string> {
  const entries = Object.entries(declared(query, authorizationQuery));
  return Object.fromEntries(entries.filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function contextOf(request: FastifyRequest, deps: GatewayDependencies): mcpOAuth.AuthorizationContext {
  return {
    issuer: issuerOf(deps),
    resource: resourceOf(deps),
    sessionToken: request.cookies?.[SESSION_COOKIE] ?? '',
  };
}

/**
 * A post another site's page made: the browser says so (Sec-Fetch-Site, Origin). SameSite=Lax
 * already keeps the session cookie off it; this refuses it where a browser sends the cookie anyway.
 */
function crossSite(request: FastifyRequest, deps: GatewayDependencies): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  return origin !== undefined && origin !== deps.publicOrigin();
}
