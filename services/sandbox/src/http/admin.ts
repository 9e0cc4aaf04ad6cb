import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { KnobsPatch } from '../domain/knobs';
import { object, text } from './schema';
import type { SandboxState, VendorDefinition } from './vendor-kit';

const milliseconds = { type: 'integer', minimum: 0, maximum: 600_000 } as const;
const share = { type: 'number', minimum: 0, maximum: 1 } as const;
const distribution = object({ median: milliseconds, p95: milliseconds });

const knobsPatchSchema = {
  ...object({
    latency_ms: distribution,
    job_duration_ms: distribution,
    faults: object({ timeout: share, server_error: share, malformed: share }),
    timeout_hang_ms: milliseconds,
    hit_rate_multiplier: { type: 'number', minimum: 0, maximum: 100 },
    rate_limit: {
      anyOf: [
        { type: 'null' },
        object(
          {
            per_second: { type: 'number', exclusiveMinimum: 0, maximum: 100_000 },
            burst: { type: 'integer', minimum: 1, maximum: 100_000 },
          },
          ['per_second', 'burst'],
        ),
      ],
    },
  }),
  minProperties: 1,
};

const vendorParams = object({ vendor: { type: 'string' } }, ['vendor']);
const indexParams = object({ index: { type: 'integer', minimum: 0 } }, ['index']);
const resetBody = object({ counters: { type: 'boolean' }, knobs: { type: 'boolean' }, jobs: { type: 'boolean' } });

interface VendorParams {
  vendor: string;
}

/**
 * The admin API: read and change each vendor's knobs at run time, read request counters, reset,
 * and read the universe's ground truth (what a person or company really is). Bad bodies get 422
 * with a `detail` list, as the public interface answers.
 */
export function registerAdmin(app: FastifyInstance, state: SandboxState, vendors: readonly VendorDefinition[]): void {
  const notFound = (reply: FastifyReply, what: string) =>
    reply.code(404).send({ error: 'not_found', message: `no ${what}` });

  app.register(
    async (admin) => {
      admin.setErrorHandler((error: FastifyError, _request, reply) => {
        if (!error.validation) return reply.send(error);
        const detail = error.validation.map((issue) => ({
          loc: [error.validationContext ?? 'body', ...issue.instancePath.split('/').filter(Boolean)],
          msg: issue.message ?? 'invalid',
          type: issue.keyword,
        }));
        return reply.code(422).send({ detail });
      });

      admin.get('/vendors', async () => ({ vendors: vendors.map((v) => v.descriptor) }));

      admin.get('/knobs', async () => ({ knobs: state.knobs.all() }));

      admin.put<{ Body: KnobsPatch }>('/knobs', { schema: { body: knobsPatchSchema } }, async (request) => {
        for (const vendor of vendors) state.knobs.patch(vendor.descriptor.id, request.body);
        return { knobs: state.knobs.all() };
      });

      admin.get<{ Params: VendorParams }>(
        '/knobs/:vendor',
        { schema: { params: vendorParams } },
        async (request, reply) =>
          state.knobs.has(request.params.vendor)
            ? state.knobs.get(request.params.vendor)
            : notFound(reply, `vendor ${request.params.vendor}`),
      );

      admin.put<{ Params: VendorParams; Body: KnobsPatch }>(
        '/knobs/:vendor',
        { schema: { params: vendorParams, body: knobsPatchSchema } },
        async (request, reply) =>
          state.knobs.has(request.params.vendor)
            ? state.knobs.patch(request.params.vendor, request.body)
            : notFound(reply, `vendor ${request.params.vendor}`),
      );

      admin.get('/counters', async () => ({ counters: state.counters.snapshot() }));

      admin.get<{ Params: VendorParams }>(
        '/counters/:vendor',
        { schema: { params: vendorParams } },
        async (request, reply) =>
          state.knobs.has(request.params.vendor)
            ? state.counters.snapshot(request.params.vendor)[request.params.vendor]
            : notFound(reply, `vendor ${request.params.vendor}`),
      );

      admin.post<{ Body: { counters?: boolean; knobs?: boolean; jobs?: boolean } | undefined }>(
        '/reset',
        { schema: { body: { anyOf: [resetBody, { type: 'null' }] } } },
        async (request) => {
          const { counters = true, knobs = true, jobs = true } = request.body ?? {};
          if (counters) state.counters.reset();
          if (knobs) state.knobs.reset();
          if (jobs) state.jobs.clear();
          return { reset: { counters, knobs, jobs } };
        },
      );

      admin.get<{ Params: { vendor: string; id: string } }>(
        '/jobs/:vendor/:id',
        { schema: { params: object({ vendor: text, id: text }, ['vendor', 'id']) } },
        async (request, reply) => {
          const job = state.jobs.find(request.params.vendor, request.params.id);
          if (!job) return notFound(reply, 'such job');
          return {
            id: job.id,
            vendor: job.vendor,
            done: state.jobs.isDone(job),
            callback_url: job.callbackUrl ?? null,
          };
        },
      );

      admin.get<{ Params: { index: number } }>(
        '/people/:index',
        { schema: { params: indexParams } },
        async (request, reply) =>
          request.params.index < state.universe.people
            ? state.universe.person(request.params.index)
            : notFound(reply, 'such person'),
      );

      admin.get<{ Params: { index: number } }>(
        '/companies/:index',
        { schema: { params: indexParams } },
        async (request, reply) =>
          request.params.index < state.universe.companies.count
            ? state.universe.companies.get(request.params.index)
            : notFound(reply, 'such company'),
      );
    },
    { prefix: '/_admin' },
  );
}
