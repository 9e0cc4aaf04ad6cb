import type { FastifySchema } from 'fastify';
import type { Job } from './jobs';
import { jobIdParams } from './schema';
import type { VendorContext, VendorRoutes } from './vendor-kit';

/** What differs between async vendors; the submit/poll flow around it is the same for all. */
export interface JobEndpoints<Body, Result> {
  readonly idPrefix: string;
  /** The poll endpoint's path parameter, also the job-id field of the vendor's bodies. */
  readonly idField: string;
  /** The submit body's field that carries the callback URL. */
  readonly callbackField: keyof Body & string;
  /** What a job is called in the vendor's 404 ("lookup", "batch"). */
  readonly noun: string;
  readonly submitSchema: FastifySchema;
  /** A reason to refuse the submission with a 400, if any. */
  refuse?(body: Body): string | undefined;
  /** The job's result, decided at submission. */
  result(body: Body): Result;
  /** The body POSTed to the callback URL when the job is done. */
  callbackBody(jobId: string): unknown;
  accepted(job: Job<Result>, body: Body): { status: number; body: unknown };
  pending(jobId: string): unknown;
  done(job: Job<Result>): unknown;
}

/** Mounts a vendor's `submit` and `poll` endpoints for its async jobs. */
export function registerJobEndpoints<Body extends object, Result>(
  routes: VendorRoutes,
  vendor: VendorContext,
  spec: JobEndpoints<Body, Result>,
): void {
  routes.on<{ Body: unknown }>('submit', spec.submitSchema, async (request, reply) => {
    // The submit schema has validated the body's shape.
    const body = request.body as Body;
    const refusal = spec.refuse?.(body);
    if (refusal) return vendor.fail(reply, 400, refusal);
    const url = body[spec.callbackField] as string | undefined;
    const callback = url === undefined ? undefined : { url, body: spec.callbackBody };
    const job = vendor.submitJob(spec.idPrefix, spec.result(body), callback);
    if (job === 'refused') return vendor.fail(reply, 400, `${spec.callbackField} must be a loopback http(s) URL`);
    const answer = spec.accepted(job, body);
    return reply.code(answer.status).send(answer.body);
  });

  routes.on<{ Params: Record<string, string> }>(
    'poll',
    { params: jobIdParams(spec.idField) },
    async (request, reply) => {
      const id = request.params[spec.idField]!;
      const job = vendor.pollJob<Result>(id);
      if (job === undefined) return vendor.fail(reply, 404, `no such ${spec.noun}`);
      return job === 'pending' ? spec.pending(id) : spec.done(job);
    },
  );
}
