import Fastify, { type FastifyInstance } from 'fastify';

/**
 * A stand-in for ONE vendor's wire shape (PeopleGraph's search, as its API documentation shows
 * it), for the catalog's tests; the real sandbox is exercised by the end-to-end suite. Tests set
 * what it answers next and read what it was sent.
 */
export interface FakePplgraph {
  readonly url: string;
  /** Requests received, with their headers and bodies. */
  readonly received: { headers: Record<string, unknown>; body: unknown }[];
  /** Rows the next searches return (at most `size` of them), or a failure to answer with. */
  answerWith(answer: { rows: number } | { status: number } | { hangMs: number } | { malformed: true }): void;
  close(): Promise<void>;
}

export const FAKE_PPLGRAPH_KEY = 'fake-key';

export async function startFakePplgraph(): Promise<FakePplgraph> {
  const app: FastifyInstance = Fastify();
  const received: FakePplgraph['received'] = [];
  let next: Parameters<FakePplgraph['answerWith']>[0] = { rows: 3 };
  app.post<{ Body: { size?: number } }>('/pplgraph/v1/people/search', async (request, reply) => {
    received.push({ headers: request.headers, body: request.body });
    if (request.headers['x-api-key'] !== FAKE_PPLGRAPH_KEY) {
      return reply.code(401).send({ error: { type: 'authentication_error', message: 'missing or invalid X-Api-Key' } });
    }
    if ('status' in next) {
      const invalid = next.status < 500;
      const message = invalid ? 'unknown location: "Atlantis"' : 'internal error';
      if (next.status === 429) void reply.header('retry-after', '2');
      return reply
        .code(next.status)
        .send({ error: { type: invalid ? 'invalid_request_error' : 'api_error', message } });
    }
    if ('hangMs' in next) {
      const { hangMs } = next;
      await new Promise((resolve) => setTimeout(resolve, hangMs));
    }
    if ('malformed' in next) return reply.type('application/json').send('{"status": 200, "data": [');
    const count = Math.min('rows' in next ? next.rows : 0, request.body.size ?? 10);
    const data = Array.from({ length: count }, (_, i) => ({
      pg_id: `pg_${i}`,
      full_name: `Person ${i}`,
      job_title: 'CTO',
    }));
    return { status: 200, data, total: 1234, scroll_token: count > 0 ? String(count) : null, credits_charged: count };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answerWith: (answer) => {
      next = answer;
    },
    close: () => app.close(),
  };
}
