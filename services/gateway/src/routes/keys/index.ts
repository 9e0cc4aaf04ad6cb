import type { FastifyInstance } from 'fastify';
import type { auth } from '@rde/proto';
import type { GatewayDependencies } from '../../dependencies';
import { createdKey, createKeyBody, keyErrors, keyList, keyParams, revokedKey } from './schemas';

/**
 * API keys: mint (the plaintext is in this one response), list (metadata only), revoke. Who may
 * revoke which key is decided by the auth service.
 */
export async function keyRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { auth: authClient } = deps.clients;

  app.post<{ Body: { name: string } }>(
    '/api/v2/keys',
    { schema: { body: createKeyBody, response: { 201: createdKey, ...keyErrors } } },
    async (request, reply) => {
      const { key, keyPlaintext } = await authClient.createKey({ name: request.body.name }, { caller: request.caller });
      const { id, name, prefix, created_at } = publicKey(key!);
      return reply.code(201).send({ id, name, key: keyPlaintext, prefix, created_at });
    },
  );

  app.get('/api/v2/keys', { schema: { response: { 200: keyList, ...keyErrors } } }, async (request) => {
    const { keys } = await authClient.listKeys({}, { caller: request.caller });
    return { keys: keys.map(publicKey) };
  });

  app.delete<{ Params: { key_id: string } }>(
    '/api/v2/keys/:key_id',
    { schema: { params: keyParams, response: { 200: revokedKey, ...keyErrors } } },
    async (request) => {
      const { key } = await authClient.revokeKey({ keyId: request.params.key_id }, { caller: request.caller });
      return { id: key!.id, revoked: true };
    },
  );
}

function publicKey(key: auth.ApiKey) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.displayPrefix,
    created_by: key.createdByUserId,
    created_at: new Date(key.createdAtMs).toISOString(),
    last_used_at: key.lastUsedAtMs ? new Date(key.lastUsedAtMs).toISOString() : null,
  };
}
