import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { backendUnavailable, isBackendOutage, RdeError } from '@rde/platform';
import { publicSchemas } from '@rde/proto';
import { PATH_PARAM_MAX_LENGTH } from './contract';
import type { AllowedMethods } from './methods';

/**
 * Error bodies come from the services (RdeError crossing gRPC) or from schema validation; the
 * gateway never invents one. Unknown routes and crashes get the same JSON shape.
 */
export function registerErrorHandling(app: FastifyInstance, allowedMethods: AllowedMethods): void {
  // Answered before any body handling: a QUERY without Content-Type is still told 405, not 400.
  // A static path shadows a parameter too: GET /session/start names the POST-only route, not a
  // session called "start", so it is a 405 as well.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404 && !request.routeOptions.url?.includes(':')) return;
    const allowed = allowedMethods(request.url);
    if (allowed.length === 0 || allowed.includes(request.method)) return;
    return reply
      .code(405)
      .header('allow', allowed.join(', '))
      .send({ detail: `${request.method} is not allowed here; allowed: ${allowed.join(', ')}` });
  });
  app.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send({ detail: 'Not Found' });
  });
  app.setErrorHandler((error: FastifyError | RdeError, request, reply) => {
    if (error instanceof RdeError) return reply.code(error.httpStatus).send(error.body);
    if (error.validation) {
      const context = error.validationContext;
      const schema = context && (request.routeOptions.schema as Record<string, object> | undefined)?.[context];
      const refusal = publicSchemas.validationRefusal(locationName(context), error.validation, schema);
      return reply.code(refusal.status).send(refusal.body);
    }
    if (error.statusCode && error.statusCode < 500) {
      return reply.code(error.statusCode).send({ detail: error.message });
    }
    if (isBackendOutage(error)) {
      request.log.warn({ err: error }, 'a backend is unavailable');
      const unavailable = backendUnavailable();
      return reply.code(unavailable.httpStatus).send(unavailable.body);
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: 'Internal Server Error' });
  });
}

function locationName(context: string | undefined): string {
  return context === 'querystring' ? 'query' : (context ?? 'body');
}

/** Where the public skill packages' files are served (a traversal attempt there is a 404). */
const SKILL_FILES_PREFIX = '/.well-known/skills/';

/**
 * Errors the router raises before any route runs. A path parameter longer than the router allows
 * is answered exactly as the route's schema would answer it (the limit is the same), not 414.
 */
export function routerErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // A skill file path that does not even decode (an overlong UTF-8 `..%c0%af`) names no file: 404.
  if (error.code === 'FST_ERR_BAD_URL' && request.url.startsWith(SKILL_FILES_PREFIX)) {
    void reply.code(404).send({ detail: 'Not Found' });
    return;
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const msg = `must NOT have more than ${PATH_PARAM_MAX_LENGTH} characters`;
    void reply.code(422).send({ detail: [{ loc: ['path'], msg, type: 'maxLength' }] });
    return;
  }
  void reply.code(error.statusCode ?? 400).send({ detail: error.message });
}
