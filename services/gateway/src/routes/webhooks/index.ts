import type { FastifyInstance } from 'fastify';
import { errorResponses, pathParam } from '../../contract';
import type { GatewayDependencies } from '../../dependencies';

/** The one answer of the vendor callback route, whatever happened. */
const ACCEPTED = { ok: true } as const;
/** Nonces are 22 characters (128 bits, base64url); anything far longer is not one of ours. */
const MAX_NONCE_LENGTH = 64;

/**
 * Vendor callbacks (spec "Events" 2): the per-job nonce in the URL is the authentication. The body
 * is never parsed, logged or stored (it is drained unread), and every call answers the same 200,
 * so the route reveals nothing about which nonces exist and gives a vendor no reason to retry.
 */
export async function webhookRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => {
      payload.resume();
      payload.on('end', () => done(null, undefined));
      payload.on('error', () => done(null, undefined));
    });
    scope.post<{ Params: { provider: string; nonce: string } }>(
      '/api/v2/webhooks/provider/:provider/:nonce',
      {
        config: { public: true },
        logLevel: 'warn',
        schema: {
          params: {
            type: 'object',
            properties: { provider: pathParam(), nonce: pathParam() },
            required: ['provider', 'nonce'],
          },
          // 400/413/415 are the shared contract of every POST (contract.ts); this route drains any
          // body unread, so it answers them only if the router refuses the request before it.
          response: {
            200: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
            ...errorResponses(400, 413, 415),
          },
        },
      },
      async (request) => {
        const { provider, nonce } = request.params;
        if (nonce.length <= MAX_NONCE_LENGTH && provider.length <= MAX_NONCE_LENGTH) {
          await deps.clients.waterfall
            .wakeProviderJob({ provider, nonce }, {})
            .catch((error: unknown) => request.log.warn({ err: error, provider }, 'provider callback not delivered'));
        }
        return ACCEPTED;
      },
    );
  });
}
