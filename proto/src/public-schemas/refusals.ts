/**
 * What a request that fails its schema is answered, wherever it arrives (a REST route, an MCP
 * tool's arguments): the spec's 422 validation list, or the spec's own bodies where it names one.
 */

import { describeIssues, type SchemaIssue } from './issues';

/** A refusal: the HTTP status and the spec's error body. */
export interface Refusal {
  status: number;
  body: Record<string, unknown>;
}

/** The spec's 400 for a session id that is not a `ses_` id (the same body the services send). */
const INVALID_SESSION_ID = { detail: { reason: 'invalid_session_id', message: 'session_id must be a ses_ id' } };

/** A body or query `session_id`, or the `{sid}` path parameter of the /session/* routes. */
const SESSION_ID_FIELDS = new Set(['session_id', 'sid']);

/**
 * `location` is where the value was read: `body`, `query` or `path`; `schema` is the one it was
 * validated against (it names the properties a misspelt one is suggested from).
 */
export function validationRefusal(location: string, issues: readonly SchemaIssue[], schema?: object): Refusal {
  if (issues.some(isSessionIdPattern)) return { status: 400, body: INVALID_SESSION_ID };
  const detail = describeIssues(issues, schema).map(({ path, msg, type }) => ({ loc: [location, ...path], msg, type }));
  return { status: 422, body: { detail } };
}

/**
 * POST /qualify's own 422 bodies (spec Errors table) for the two shapes it names, ahead of the
 * generic list: `bad_candidates` with every position that is not an object, then `bad_min_score`.
 */
export function qualifyRefusal(issues: readonly SchemaIssue[]): Refusal | undefined {
  const rows = issues.flatMap(({ instancePath, keyword }) => {
    const position = /^\/candidates\/(\d+)$/.exec(instancePath);
    return position && keyword === 'type' ? [Number(position[1])] : [];
  });
  if (rows.length > 0) {
    const message = 'every candidate must be an object (a search or profile row)';
    return { status: 422, body: { detail: { error: 'bad_candidates', rows, message } } };
  }
  if (issues.some(({ instancePath }) => instancePath === '/min_score')) {
    const message = 'min_score must be a number from 0 to 10';
    return { status: 422, body: { detail: { error: 'bad_min_score', message } } };
  }
  return undefined;
}

function isSessionIdPattern(issue: SchemaIssue): boolean {
  return issue.keyword === 'pattern' && SESSION_ID_FIELDS.has(issue.instancePath.split('/').pop() ?? '');
}
