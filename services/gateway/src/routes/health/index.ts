import type { FastifyInstance } from 'fastify';
import type { GatewayDependencies } from '../../dependencies';

const statusSchema = {
  type: 'object',
  properties: { status: { type: 'string' } },
  required: ['status'],
} as const;

/** Liveness (`/health`, `/healthz`) says the process answers; readiness (`/ready`) says it can serve. */
export async function healthRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const live = { config: { public: true }, schema: { response: { 200: statusSchema } } };
  app.get('/health', live, async () => ({ status: 'ok' }));
  app.get('/healthz', live, async () => ({ status: 'ok' }));

  app.get(
    '/ready',
    {
      config: { public: true },
      schema: {
        response: {
          200: readySchema,
          503: readySchema,
        },
      },
    },
    async (_request, reply) => {
      const downstreams = await deps.downstreams.check(deps.config.RDE_READY_PROBE_MS);
      const draining = deps.isDraining();
      const ready = !draining && Object.values(downstreams).every((status) => status === 'SERVING');
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', draining, downstreams });
    },
  );
}

const readySchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ready', 'not_ready'] },
    draining: { type: 'boolean' },
    downstreams: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['status', 'draining', 'downstreams'],
} as const;
