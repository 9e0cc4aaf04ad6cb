import type { FastifyInstance } from 'fastify';
import { dashboardPageOf } from '../../config';
import type { GatewayDependencies } from '../../dependencies';

/** The OpenAPI document generated from every route's schemas, and the redirect for humans. */
export async function metaRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  app.get('/', { config: { public: true }, schema: { response: { 302: { type: 'null' } } } }, async (_request, reply) =>
    reply.redirect(dashboardPageOf(deps.config), 302),
  );
}
