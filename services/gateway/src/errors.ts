import type { FastifyError, FastifyInstance } from 'fastify';
import { RdeError, type ValidationIssue } from '@rde/platform';

/**
 * Error bodies come from the services (RdeError crossing gRPC) or from schema validation; the
 * gateway never invents one. Unknown routes and crashes get the same JSON shape.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send({ detail: 'Not Found' });
  });
  app.setErrorHandler((error: FastifyError | RdeError, request, reply) => {
    if (error instanceof RdeError) return reply.code(error.httpStatus).send(error.body);
    if (error.validation) {
      return reply.code(422).send({ detail: error.validation.map((issue) => toIssue(error, issue)) });
    }
    if (error.statusCode && error.statusCode < 500) {
      return reply.code(error.statusCode).send({ detail: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: 'Internal Server Error' });
  });
}

type AjvIssue = NonNullable<FastifyError['validation']>[number];

/** An ajv error as the spec's validation item: where (`loc`), what (`msg`) and its kind (`type`). */
function toIssue(error: FastifyError, issue: AjvIssue): ValidationIssue {
  const where = locationName(error.validationContext);
  const path = issue.instancePath.split('/').filter(Boolean).map(pathPart);
  const params = issue.params as Record<string, unknown>;
  if (issue.keyword === 'required') path.push(String(params.missingProperty));
  if (issue.keyword === 'additionalProperties') path.push(String(params.additionalProperty));
  return { loc: [where, ...path], msg: issue.message ?? 'invalid', type: issueType(issue.keyword, params) };
}

function locationName(context: string | undefined): string {
  return context === 'querystring' ? 'query' : (context ?? 'body');
}

function pathPart(part: string): string | number {
  return /^\d+$/.test(part) ? Number(part) : part;
}

function issueType(keyword: string, params: Record<string, unknown>): string {
  if (keyword === 'required') return 'missing';
  if (keyword === 'additionalProperties') return 'extra_forbidden';
  if (keyword === 'type') return `${String(params.type)}_type`;
  return keyword;
}
