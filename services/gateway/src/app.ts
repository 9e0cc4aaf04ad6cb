import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { registerJsonBodies } from './body';
import { BODY_LIMIT_BYTES, PATH_PARAM_MAX_LENGTH, registerContract } from './contract';
import { registerErrorHandling, routerErrors } from './errors';
import { trackRouteMethods } from './methods';
import { registerValidation } from './validation';
import type { GatewayDependencies } from './dependencies';
import { registerAuthentication } from './plugins/authentication';
import { IdempotencyRecordsRepository, registerIdempotency } from './plugins/idempotency';
import { registerRequestMetrics } from './plugins/request-metrics';
import { registerRequestTracing } from './plugins/request-tracing';
import { DOCS_UI, DOCUMENT, OPERATION_GROUPS, registerOperationDocs } from './openapi';
import { ROUTE_MODULES } from './routes';
import { answerClientError } from './client-errors';

const PROBES = new Set(['/health', '/healthz', '/ready']);

/** The gateway's HTTP app, without listening: tests inject requests into it. */
export async function buildGateway(deps: GatewayDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Access logs for every request but the probes, which would drown them.
    logController: new LogController({ disableRequestLogging: (request) => PROBES.has(request.url) }),
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: PATH_PARAM_MAX_LENGTH },
    frameworkErrors: routerErrors,
    clientErrorHandler: answerClientError,
    // X-Forwarded-For, -Proto and -Host count only from the proxies configured (decision 0055).
    trustProxy: deps.config.RDE_TRUSTED_PROXIES.length > 0 ? deps.config.RDE_TRUSTED_PROXIES : false,
  });
  registerRequestTracing(app);
  registerContract(app);
  const allowedMethods = trackRouteMethods(app);
  registerOperationDocs(app, OPERATION_GROUPS);
  await app.register(swagger, DOCUMENT);
  await app.register(cookie);
  await app.register(async (docs) => {
    // The rendered document is for people before they hold a key.
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    await docs.register(swaggerUi, DOCS_UI);
  });
  registerJsonBodies(app);
  registerRequestMetrics(app);
  registerValidation(app);
  registerErrorHandling(app, allowedMethods);
  registerAuthentication(app, { clients: deps.clients, clock: deps.clock, cacheMs: deps.config.RDE_BEARER_CACHE_MS });
  registerIdempotency(app, idempotencyRecordsOf(deps), deps.config.RDE_IDEMPOTENCY_LEASE_MS);
  for (const routes of ROUTE_MODULES) await routes(app, deps);
  return app;
}

function idempotencyRecordsOf({ keyValue, config }: GatewayDependencies): IdempotencyRecordsRepository {
  return new IdempotencyRecordsRepository(keyValue, {
    retentionMs: config.RDE_IDEMPOTENCY_TTL_MS,
    leaseMs: config.RDE_IDEMPOTENCY_LEASE_MS,
    maxBodyBytes: config.RDE_IDEMPOTENCY_MAX_BODY_BYTES,
  });
}
