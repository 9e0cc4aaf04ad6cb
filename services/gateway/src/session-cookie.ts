import type { FastifyReply, FastifyRequest } from 'fastify';

/** The browser session cookie: also a bearer identity for dashboard calls. */
export const SESSION_COOKIE = 'rde_session';

/**
 * HttpOnly (scripts never read it), SameSite=Lax (a cross-site POST arrives without it), Secure
 * when the request came over TLS, directly or through a proxy that says so.
 */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  expiresAtMs: number,
): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: overTls(request),
    path: '/',
    expires: new Date(expiresAtMs),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: overTls(request), path: '/' });
}

function overTls(request: FastifyRequest): boolean {
  return request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
}
