import type { FastifyInstance } from 'fastify';
import { DASHBOARD_PATH, errors, httpError } from '@rde/platform';
import type { mcpOAuth } from '@rde/proto';
import type { GatewayDependencies } from '../../dependencies';
import { errorResponses } from '../../contract';
import { sendDashboardPage } from '../dashboard';
import { contextOf, parametersOf, recognized, type AuthorizationQuery } from './authorization-request';
import { oauthRefusal } from './oauth-forms';
import { authorizationQuery, consentView, oauthErrorBody } from './oauth-schemas';

/** The dashboard's consent page (decision 0078): the authorization endpoint sends a signed-in browser here. */
export const CONSENT_PAGE = `${DASHBOARD_PATH}oauth/consent`;
const CONSENT_PATH = '/api/v2/mcp/oauth/consent';

/** What each scope lets the client do, in the words the consent page shows. */
const SCOPE_DESCRIPTIONS: Record<string, string> = {
  mcp: 'Use RDE’s MCP tools for the chosen workspace: search and enrich people, spending its credits.',
};

/**
 * The consent page and what it shows. The page is the dashboard's; its CSP lets the form's answer
 * redirect only to this origin and the client's checked redirect URI's origin. Its view is the
 * authorization request reviewed again for the session cookie: who asks, where the answer goes,
 * the scopes and the workspaces, and the parameters the form posts back.
 */
export async function consentRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { mcpOAuth: oauth } = deps.clients;
  const review = (query: AuthorizationQuery, request: Parameters<typeof contextOf>[0]) =>
    oauth.reviewAuthorization({ parameters: parametersOf(query), context: contextOf(request, deps) });

  app.get<{ Querystring: AuthorizationQuery }>(
    CONSENT_PAGE,
    { config: { public: true }, schema: { hide: true, querystring: authorizationQuery } },
    async (request, reply) => {
      // An invalid request still gets the page, which shows why; its form may then post only here.
      const { outcome } = await review(request.query, request).catch(() => ({ outcome: undefined }));
      const target = outcome?.$case === 'consent' ? [new URL(outcome.value.redirectUri).origin] : [];
      return sendDashboardPage(request, reply, target);
    },
  );

  app.get<{ Querystring: AuthorizationQuery }>(
    CONSENT_PATH,
    {
      config: { public: true },
      schema: {
        querystring: authorizationQuery,
        response: { 200: consentView, 400: oauthErrorBody, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const { outcome } = await review(request.query, request);
      if (outcome?.$case === 'consent') return viewOf(outcome.value, recognized(request.query));
      if (outcome?.$case === 'errorRedirectUrl') throw refusalOf(outcome.value);
      throw errors.unauthenticated('Not signed in: sign in to RDE in this browser to review the request');
    },
  );
}

function viewOf(consent: mcpOAuth.ConsentView, parameters: Record<string, string>) {
  return {
    client_id: consent.clientId,
    client_name: consent.clientName,
    redirect_uri: consent.redirectUri,
    user_email: consent.userEmail,
    scopes: consent.scope.split(' ').map((name) => ({ name, description: SCOPE_DESCRIPTIONS[name] ?? name })),
    workspaces: consent.workspaces,
    parameters,
  };
}

/** A request the client made wrongly: the error its redirect would carry, shown to the person instead. */
function refusalOf(errorRedirectUrl: string) {
  const returned = new URL(errorRedirectUrl).searchParams;
  return httpError(
    400,
    oauthRefusal(returned.get('error') ?? 'invalid_request', returned.get('error_description') ?? ''),
  );
}
