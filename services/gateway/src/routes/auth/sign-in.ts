import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { signin } from '@rde/proto';
import type { GatewayDependencies } from '../../dependencies';
import { clearSessionCookie, setSessionCookie } from '../../session-cookie';
import {
  bearerErrors,
  completeBody,
  loginBody,
  mailErrors,
  okSchema,
  pendingSchema,
  publicErrors,
  sentSchema,
  signedInSchema,
  signInRequestBody,
  spendErrors,
  verifyBody,
  verifyCodeBody,
} from './schemas';

const open = { public: true } as const;

interface SignInRequestBody {
  email: string;
  cli_token?: string;
  next?: string;
  invite_code?: string;
}

/** Magic link and code, password sign-up and login, logout. Every successful leg sets the session cookie. */
export async function signInRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { signin: signIn } = deps.clients;
  const signInRequest = (body: SignInRequestBody) => ({
    email: body.email,
    cliToken: body.cli_token ?? '',
    next: body.next ?? '',
    inviteCode: body.invite_code ?? '',
  });

  app.post<{ Body: SignInRequestBody }>(
    '/api/v2/auth/magic-link',
    {
      config: open,
      schema: { security: [], body: signInRequestBody, response: { 200: sentSchema, ...mailErrors } },
    },
    async (request) => {
      const { email } = await signIn.sendMagicLink(signInRequest(request.body));
      return { ok: true, email };
    },
  );

  app.post<{ Body: { token?: string } }>(
    '/api/v2/auth/magic-link/verify',
    {
      config: open,
      schema: { security: [], body: verifyBody, response: { 200: signedInSchema, ...spendErrors } },
    },
    async (request, reply) => {
      const { result } = await signIn.verifyMagicLink({ token: request.body.token ?? '' });
      return signedIn(request, reply, result!);
    },
  );

  app.post<{ Body: { email: string; code: string } }>(
    '/api/v2/auth/magic-link/verify-code',
    {
      config: open,
      schema: { security: [], body: verifyCodeBody, response: { 200: signedInSchema, ...spendErrors } },
    },
    async (request, reply) => {
      const { result } = await signIn.verifyCode(request.body);
      return signedIn(request, reply, result!);
    },
  );

  app.post<{ Body: SignInRequestBody }>(
    '/api/v2/auth/password/signup',
    {
      config: open,
      schema: { security: [], body: signInRequestBody, response: { 200: pendingSchema, ...mailErrors } },
    },
    async (request) => {
      const { email } = await signIn.startPasswordSignup(signInRequest(request.body));
      return { ok: true, pending: true, email };
    },
  );

  app.post<{ Body: { token: string; password: string } }>(
    '/api/v2/auth/password/signup/complete',
    {
      config: open,
      schema: { security: [], body: completeBody, response: { 200: signedInSchema, ...spendErrors } },
    },
    async (request, reply) => {
      const { result } = await signIn.completePasswordSignup(request.body);
      return signedIn(request, reply, result!);
    },
  );

  app.post<{ Body: { email: string; password: string; cli_token?: string } }>(
    '/api/v2/auth/password/login',
    {
      config: open,
      schema: {
        security: [],
        body: loginBody,
        response: { 200: signedInSchema, 401: bearerErrors[401], ...publicErrors },
      },
    },
    async (request, reply) => {
      const { email, password, cli_token: cliToken = '' } = request.body;
      const { result } = await signIn.passwordLogin({ email, password, cliToken });
      return signedIn(request, reply, result!, cliToken);
    },
  );

  app.post(
    '/api/v2/auth/logout',
    { schema: { response: { 200: okSchema, ...bearerErrors } } },
    async (request, reply) => {
      await signIn.logout({ token: request.bearerToken });
      app.forgetBearer(request.bearerToken);
      clearSessionCookie(request, reply);
      return { ok: true };
    },
  );
}

/** A sign-in leg's outcome as JSON, with the session cookie when it signed the browser in. */
function signedIn(request: FastifyRequest, reply: FastifyReply, result: signin.SignInResult, cliToken = '') {
  if (result.kind === 'set_password') {
    return { ok: true, kind: result.kind, set_password_token: result.setPasswordToken };
  }
  setSessionCookie(request, reply, result.sessionToken, result.sessionExpiresAtMs);
  return {
    ok: true,
    kind: result.kind,
    ...(result.kind === 'cli' && cliToken ? { cli_token: cliToken } : {}),
    session: {
      user_id: result.userId,
      email: result.email,
      workspace_id: result.workspaceId,
      expires_at: new Date(result.sessionExpiresAtMs).toISOString(),
    },
    ...(result.nextUrl ? { next_url: result.nextUrl } : {}),
  };
}
