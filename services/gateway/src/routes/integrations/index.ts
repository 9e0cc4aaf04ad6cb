import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { signin } from '@rde/proto';
import { dashboardPageOf } from '../../config';
import type { GatewayDependencies } from '../../dependencies';
import { originOf } from '../auth/external';
import {
  callbackParams,
  PROVIDER_NAME,
  consentSchema,
  credentialsBody,
  disconnectedSchema,
  errorResponses,
  integrationList,
  providerParams,
  redirectSchema,
  savedSchema,
} from './schemas';

/** Mirrors the single-use state for the callback: HttpOnly, scoped to that one path, short-lived. */
const STATE_COOKIE = 'rde_oauth_state';
const STATE_COOKIE_SECONDS = 600;

type ProviderParams = { Params: { provider: string } };

const callbackPath = (provider: string) => `/api/v2/integrations/${provider}/oauth/callback`;

/**
 * CRM/ATS connect: the providers and the workspace's standing with each, its own OAuth app, the
 * consent URL, the vendor's callback, and disconnect (decision 0084).
 */
export async function integrationRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { signin: signIn } = deps.clients;
  const integrationsPage = (outcome: Record<string, string>) =>
    `${dashboardPageOf(deps.config, 'integrations')}?${new URLSearchParams(outcome)}`;

  app.get(
    '/api/v2/integrations',
    { schema: { response: { 200: integrationList, 401: errorResponses[401] } } },
    async (request) => {
      const { integrations } = await signIn.listIntegrations({}, { caller: request.caller });
      return { integrations: integrations.map(publicIntegration) };
    },
  );

  app.delete<ProviderParams>(
    '/api/v2/integrations/:provider/connection',
    { schema: { params: providerParams, response: { 200: disconnectedSchema, ...errorResponses } } },
    async (request) => {
      const { provider } = request.params;
      const { wasConnected } = await signIn.disconnectIntegration({ provider }, { caller: request.caller });
      return { ok: true, provider, was_connected: wasConnected };
    },
  );

  app.put<ProviderParams & { Body: { client_id: string; client_secret: string } }>(
    '/api/v2/integrations/:provider/oauth/credentials',
    {
      schema: {
        params: providerParams,
        body: credentialsBody,
        response: { 200: savedSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { provider } = request.params;
      const { client_id: clientId, client_secret: clientSecret } = request.body;
      await signIn.saveIntegrationApp({ provider, clientId, clientSecret }, { caller: request.caller });
      return { ok: true, provider };
    },
  );

  app.get<ProviderParams>(
    '/api/v2/integrations/:provider/oauth/start',
    { schema: { params: providerParams, response: { 200: consentSchema, ...errorResponses } } },
    async (request, reply) => {
      const { provider } = request.params;
      const { authorizationUrl, state } = await signIn.startIntegration(
        { provider, redirectUri: `${originOf(request)}${callbackPath(provider)}` },
        { caller: request.caller },
      );
      void reply.setCookie(STATE_COOKIE, state, {
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https',
        path: callbackPath(provider),
        maxAge: STATE_COOKIE_SECONDS,
      });
      return { url: authorizationUrl };
    },
  );

  app.get<ProviderParams>(
    '/api/v2/integrations/:provider/oauth/callback',
    {
      config: { public: true },
      schema: { security: [], params: callbackParams, response: { 302: redirectSchema } },
    },
    async (request, reply) => {
      const { provider } = request.params;
      // A provider name no connect could have used gets the same redirect, and no cookie path built from it.
      if (!PROVIDER_NAME.test(provider)) return reply.redirect(integrationsPage({ error: 'connect' }), 302);
      void reply.clearCookie(STATE_COOKIE, { path: callbackPath(provider) });
      try {
        await signIn.finishIntegration({
          provider,
          callbackUrl: `${originOf(request)}${request.url}`,
          cookieState: stateCookieOf(request),
        });
        return reply.redirect(integrationsPage({ connected: provider }), 302);
      } catch {
        return reply.redirect(integrationsPage({ error: 'connect', provider }), 302);
      }
    },
  );
}

function publicIntegration({ provider, app, connectedAtMs }: signin.Integration) {
  const connectedAt = connectedAtMs ? new Date(connectedAtMs).toISOString() : null;
  return { provider, app, connected: connectedAt !== null, connected_at: connectedAt };
}

function stateCookieOf(request: FastifyRequest): string {
  return request.cookies?.[STATE_COOKIE] ?? '';
}
