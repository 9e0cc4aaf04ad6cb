import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '@rde/platform';
import { refuseOtherBodies } from '../../body';

export type Form = Record<string, string | undefined>;

/** What OAuth's request bodies are (RFC 6749 §4.1.3, RFC 7009 §2.1). */
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/**
 * Only the parameters a schema declares (RFC 6749 §3.1: others are ignored), by their wire names,
 * so the contract's JSON reader sees nothing else.
 */
export function declared(form: Form, schema: { properties: Record<string, unknown> }): Form {
  return Object.fromEntries(Object.keys(schema.properties).map((name) => [name, form[name]]));
}

/**
 * OAuth's request bodies are `application/x-www-form-urlencoded` (RFC 6749 §4.1.3, RFC 7009 §2.1);
 * in this scope they are the only ones. A parameter sent twice is refused (RFC 6749 §3.1), and the
 * parsed form has no prototype, so no key can reach one.
 */
export function acceptFormBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: 'string' }, (_request: FastifyRequest, text, done) => {
    const form: Form = Object.create(null);
    for (const [name, value] of new URLSearchParams(text as string)) {
      if (name in form)
        return done(
          errors.badRequest({ detail: `${name} is sent more than once`, error: 'invalid_request' }),
          undefined,
        );
      form[name] = value;
    }
    done(null, form);
  });
  refuseOtherBodies(scope, oauthRefusal('invalid_request', 'The body must be application/x-www-form-urlencoded'));
}

/** An OAuth error body (RFC 6749 §5.2, RFC 7591 §3.2.2), with the spec's `detail` beside it. */
export function oauthRefusal(error: string, description: string) {
  return { detail: description, error, error_description: description };
}
