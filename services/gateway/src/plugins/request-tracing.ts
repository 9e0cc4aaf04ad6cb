import type { FastifyInstance, FastifyRequest } from 'fastify';
import { startRequestSpan, type RequestSpan } from '@rde/platform';

/**
 * One SERVER span per request, named after its route template (`GET /api/v2/keys`), with every
 * later hook and the handler inside its context, so the gRPC calls they make join its trace.
 * Registered before every other hook, so authentication's calls are inside it too.
 */
export function registerRequestTracing(app: FastifyInstance): void {
  const spans = new WeakMap<FastifyRequest, RequestSpan>();
  app.addHook('onRequest', (request, _reply, done) => {
    const span = startRequestSpan(request.method, request.routeOptions.url, request.headers);
    spans.set(request, span);
    span.run(done);
  });
  // A body is read on the socket's events, outside the request's context: enter it again for the handler.
  app.addHook('preHandler', (request, _reply, done) => {
    const span = spans.get(request);
    if (span) span.run(done);
    else done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    spans.get(request)?.end(reply.statusCode);
    done();
  });
}
