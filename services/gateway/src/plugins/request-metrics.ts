import type { FastifyInstance } from 'fastify';
import { httpServerDuration } from '@rde/platform';

/**
 * RED per route: every answered request observes its duration under the route's template
 * (`/api/v2/keys/:id`, never the raw URL, so series stay bounded), method and status. Requests
 * that matched no route share one `unmatched` series.
 */
export function registerRequestMetrics(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    httpServerDuration.observe(
      {
        route: request.routeOptions.url ?? 'unmatched',
        method: request.method,
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
}
