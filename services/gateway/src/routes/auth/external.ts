import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RdeError } from '@rde/platform';
import type { GatewayDependencies } from '../../dependencies';
import { setSessionCookie } from '../../session-cookie';
import { claimErrors, externalCallbackQuery, externalStartQuery, redirectSchema } from './schemas';

const open = { public: true } as const;
const CALLBACK_PATH = '/api/v2/auth/oauth/google/callback';
/** Same-origin pages of the dashboard the callback sends the browser to. */
const PAGES = { signIn: '/auth/signin', cliFinalize: '/auth/cli/finalize', dashboard: '/' };

/** Sign-in with the external identity provider: a redirect there, and its callback. */
export async function externalSignInRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { signin: signIn } = deps.clients;

  app.get<{ Querystring: { cli_token?: string; next?: string; invite_code?: string } }>(
    '/api/v2/auth/oauth/google/start',
    {
      config: open,
      schema: {
        security: [],
        querystring: externalStartQuery,
        response: { 302: redirectSchema, ...claimErrors },
      },
    },
    async (request, reply) => {
      const { cli_token: cliToken = '', next = '', invite_code: inviteCode = '' } = request.query;
      const { authorizationUrl } = await signIn.startExternalSignIn({
        cliToken,
        next,
        inviteCode,
        redirectUri: `${originOf(request)}${CALLBACK_PATH}`,
      });
      return reply.redirect(authorizationUrl, 302);
    },
  );

  app.get(
    CALLBACK_PATH,
    {
      config: open,
      schema: { security: [], querystring: externalCallbackQuery, response: { 302: redirectSchema } },
    },
    async (request, reply) => {
      try {
        const { result } = await signIn.finishExternalSignIn({ callbackUrl: `${originOf(request)}${request.url}` });
        setSessionCookie(request, reply, result!.sessionToken, result!.sessionExpiresAtMs);
        const target = result!.kind === 'cli' ? PAGES.cliFinalize : result!.nextUrl || PAGES.dashboard;
        return reply.redirect(target, 302);
      } catch (error) {
        // Any failure bounces to the sign-in page with error=connect, never a JSON error.
        if (!(error instanceof RdeError) || error.httpStatus >= 500)
          request.log.warn({ err: error }, 'external sign-in failed');
        return reply.redirect(`${PAGES.signIn}?error=connect`, 302);
      }
    },
  );
}

export function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
