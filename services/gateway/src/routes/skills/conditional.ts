import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Answers content with a strong ETag (its SHA-256), or 304 with no body when the request's
 * If-None-Match already names it (RFC 9110 §13.1.2: weak comparison, `*` matches any).
 */
export function sendTagged(
  request: FastifyRequest,
  reply: FastifyReply,
  content: { body: Buffer | string; sha256: string; type: string },
): FastifyReply {
  const etag = `"${content.sha256}"`;
  reply.header('etag', etag).header('cache-control', 'public, max-age=300');
  if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type(content.type).send(content.body);
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const candidate = tag.trim();
    return candidate === '*' || candidate.replace(/^W\//, '') === etag;
  });
}
