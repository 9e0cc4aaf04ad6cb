import type { FastifyReply, FastifyRequest } from 'fastify';
import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import type { GatewayDependencies } from '../../dependencies';

/**
 * Streamable HTTP's DNS-rebinding defence (decision 0055): the Host must name the public URL's host,
 * and an Origin, when a browser sends one, the public URL's host or one configured; anything else is
 * 403. The SDK's own checks, by hostname as it compares them; a request without Origin (no browser) passes.
 */
export function originGuard(deps: GatewayDependencies) {
  const allowedOrigins = deps.config.RDE_MCP_ALLOWED_ORIGINS;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const publicHost = new URL(deps.publicOrigin()).hostname;
    const host = validateHostHeader(request.host, [publicHost]);
    const checked = host.ok ? validateOriginHeader(request.headers.origin, [publicHost, ...allowedOrigins]) : host;
    if (checked.ok) return;
    return reply.code(403).send({ jsonrpc: '2.0', error: { code: -32000, message: checked.message }, id: null });
  };
}
