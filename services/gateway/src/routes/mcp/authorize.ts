import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DASHBOARD_PATH, errors } from '@rde/platform';
import type { GatewayDependencies } from '../../dependencies';
import { errorResponses } from '../../contract';
import { contextOf, parametersOf, recognized, type AuthorizationQuery } from './authorization-request';
import { CONSENT_PAGE } from './consent';
import { acceptFormBodies, FORM_CONTENT_TYPE } from './oauth-forms';
import { authorizationQuery, consentForm, oauthErrorBody, redirect } from './oauth-schemas';

export const AUTHORIZE_PATH = '/api/v2/mcp/oauth/authorize';
/** The dashboard's sign-in page, on this origin: it returns to `next` once signed in. */
const SIGN_IN_PAGE = `${DASHBOARD_PATH}auth/signin`;

type ConsentForm = AuthorizationQuery & { workspace_id?: string; decision: 'approve' | 'deny' };

/** Answers about a consent are never framed, cached or sent on as a referrer. */
const NO_STORE_HEADERS = {
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

/**
 * The authorization endpoint (decision 0029): GET checks the request and sends the browser to the
 * dashboard's consent page (decision 0078), or to sign in first; POST is that page's decision.
 */
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
          302: redirect('the consent page when signed in; otherwise the sign-in page, which returns here'),
          303: redirect('a refused request, back to the client with `error`, `state` and `iss`'),
          400: oauthErrorBody,
        },
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE_HEADERS);
      const { outcome } = await oauth.reviewAuthorization({
        parameters: parametersOf(request.query),
        context: contextOf(request, deps),
      });
      if (outcome?.$case === 'errorRedirectUrl') return reply.redirect(outcome.value, 303);
      if (outcome?.$case === 'consent')
        return reply.redirect(`${CONSENT_PAGE}?${new URLSearchParams(recognized(request.query))}`, 302);
      return reply.redirect(`${SIGN_IN_PAGE}?${new URLSearchParams({ next: request.url })}`, 302);
    },
  );

  await app.register(async (scope) => {
    acceptFormBodies(scope);
    scope.post<{ Body: ConsentForm }>(
      AUTHORIZE_PATH,
      {
        config: open,
        schema: {
          consumes: [FORM_CONTENT_TYPE],
          body: consentForm,
          response: {
            303: redirect('back to the client with `code` (or `error`), `state` and `iss`'),
            400: oauthErrorBody,
            ...errorResponses(401, 404),
          },
        },
      },
      async (request, reply) => {
        void reply.headers(NO_STORE_HEADERS);
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

/**
 * A post another site's page made: the browser says so. SameSite=Lax already keeps the session
 * cookie off it; this refuses it where a browser sends the cookie anyway. Sec-Fetch-Site decides
 * when sent: the consent page's own form carries `Origin: null`, as its referrer policy is
 * no-referrer. Without it (an older browser), a foreign Origin is refused.
 */
function crossSite(request: FastifyRequest, deps: GatewayDependencies): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin';
  const origin = request.headers.origin;
  return origin !== undefined && origin !== deps.publicOrigin();
}
