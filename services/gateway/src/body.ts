import type { FastifyInstance } from 'fastify';
import { errors, httpError, type ErrorBody } from '@rde/platform';
import { BODY_MAX_DEPTH } from './contract';

/**
 * JSON bodies, parsed once with two limits the default parser lacks: a nesting depth (a body
 * thousands of levels deep would overflow the stack of whatever walks it next) and no `__proto__`
 * key anywhere (it would replace an object's prototype when copied). Both are refused with a
 * message that names the rule, not "invalid JSON". The size limit is fastify's `bodyLimit`.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    try {
      done(null, parseJsonBody(text as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

/**
 * In this scope a body of any type without a parser (text/plain included) is 415 with `refusal`:
 * the route's own error body, which a client of its protocol can read (OAuth's `error`, for one).
 */
export function refuseOtherBodies(scope: FastifyInstance, refusal: ErrorBody): void {
  scope.removeContentTypeParser('text/plain');
  scope.addContentTypeParser('*', (_request, _payload, done) => done(httpError(415, refusal), undefined));
}

export function parseJsonBody(text: string): unknown {
  if (text.length === 0) throw errors.badRequest({ detail: 'The body is empty but Content-Type says JSON' });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw errors.badRequest({ detail: `Body is not valid JSON: ${(error as Error).message}` });
  }
  checkShape(value);
  return value;
}

/** Walks the parsed value without recursion, so its own depth check cannot overflow the stack. */
function checkShape(root: unknown): void {
  const pending: { value: unknown; depth: number; path: (string | number)[] }[] = [
    { value: root, depth: 0, path: ['body'] },
  ];
  while (pending.length > 0) {
    const { value, depth, path } = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= BODY_MAX_DEPTH) {
      throw errors.validation([
        { loc: path, msg: `JSON nests more than ${BODY_MAX_DEPTH} levels deep`, type: 'max_depth' },
      ]);
    }
    if (Object.hasOwn(value, '__proto__')) {
      throw errors.badRequest({ detail: `A "__proto__" key is not allowed (at ${path.join('.')})` });
    }
    const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
    for (const [key, child] of entries) pending.push({ value: child, depth: depth + 1, path: [...path, key] });
  }
}
