/**
 * What a request that fails its schema is answered, wherever it arrives (a REST route, an MCP
 * tool's arguments): the spec's 422 validation list, or the spec's own bodies where it names one.
 */

/** A schema validator's issue (ajv's shape; this package does not depend on ajv). */
export interface SchemaIssue {
  keyword: string;
  instancePath: string;
  params: object;
  message?: string;
}

/** A refusal: the HTTP status and the spec's error body. */
export interface Refusal {
  status: number;
  body: Record<string, unknown>;
}

/** The spec's 400 for a session id that is not a `ses_` id (the same body the services send). */
const INVALID_SESSION_ID = { detail: { reason: 'invalid_session_id', message: 'session_id must be a ses_ id' } };

/** A body or query `session_id`, or the `{sid}` path parameter of the /session/* routes. */
const SESSION_ID_FIELDS = new Set(['session_id', 'sid']);

/** `location` is where the value was read: `body`, `query` or `path`. */
export function validationRefusal(location: string, issues: readonly SchemaIssue[]): Refusal {
  if (issues.some(isSessionIdPattern)) return { status: 400, body: INVALID_SESSION_ID };
  return { status: 422, body: { detail: issues.map((issue) => validationItem(location, issue)) } };
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

/** An issue as the spec's validation item: where (`loc`), what (`msg`) and its kind (`type`). */
function validationItem(location: string, issue: SchemaIssue) {
  const path: (string | number)[] = issue.instancePath.split('/').filter(Boolean).map(pathPart);
  const params = issue.params as Record<string, unknown>;
  if (issue.keyword === 'required') path.push(String(params.missingProperty));
  if (issue.keyword === 'additionalProperties') path.push(String(params.additionalProperty));
  return { loc: [location, ...path], msg: issue.message ?? 'invalid', type: issueType(issue.keyword, params) };
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
