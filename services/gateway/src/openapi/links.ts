/** One OpenAPI link: the operation (`METHOD /path`) a value of the answer feeds, and how. */
interface Link {
  readonly to: string;
  readonly description: string;
  /** Parameter name → runtime expression, e.g. `$response.body#/id`. */
  readonly parameters?: Readonly<Record<string, string>>;
  readonly requestBody?: Readonly<Record<string, string>>;
}

/** Links that each fill the one path parameter with the same value: name → [operation, description]. */
function byParameter(
  parameter: string,
  value: string,
  targets: Readonly<Record<string, readonly [string, string]>>,
): Record<string, Link> {
  return Object.fromEntries(
    Object.entries(targets).map(([name, [to, description]]) => [
      name,
      { to, description, parameters: { [parameter]: value } },
    ]),
  );
}

const dataset = (id: string) =>
  byParameter('ds_id', id, {
    ReadDataset: ['GET /api/v2/datasets/{ds_id}', 'the dataset'],
    ReadRows: ['GET /api/v2/datasets/{ds_id}/rows', 'its rows'],
    ExportCsv: ['GET /api/v2/datasets/{ds_id}/csv', 'its CSV'],
    AppendRows: ['POST /api/v2/datasets/{ds_id}/rows', 'append rows'],
  });

const session = (id: string) =>
  byParameter('sid', id, {
    ReadSession: ['GET /session/{sid}', 'the session'],
    Alert: ['POST /session/{sid}/alert', 'its alert banner'],
    Limit: ['POST /session/{sid}/limit', 'its spend cap'],
    Feedback: ['POST /session/{sid}/feedback', 'feedback on it'],
    End: ['POST /session/{sid}/end', 'end it'],
  });

const run = (id: string) =>
  byParameter('run_id', id, {
    PollRun: ['GET /enrich/runs/{run_id}', 'poll the run'],
    CancelRun: ['POST /enrich/runs/{run_id}/cancel', 'cancel the run'],
  });

/** The operations whose answer names a resource, keyed `METHOD /path status`, and where it leads. */
export const LINKS: Readonly<Record<string, Record<string, Link>>> = {
  'POST /api/v2/datasets 201': dataset('$response.body#/id'),
  'GET /api/v2/datasets/{ds_id} 200': dataset('$response.body#/id'),
  'POST /session/start 200': session('$response.body#/id'),
  'POST /enrich/run 200': { ...run('$response.body#/_meta/run_id'), ...dataset('$response.body#/_meta/dataset_id') },
  'POST /enrich/{capability} 200': {
    ...run('$response.body#/_meta/run_id'),
    PollJob: {
      to: 'GET /enrich/jobs/{provider}/{job_id}',
      description: 'poll the first open provider job',
      parameters: {
        provider: '$response.body#/_meta/pending_jobs/0/provider',
        job_id: '$response.body#/_meta/pending_jobs/0/job_id',
      },
    },
  },
  'POST /search/{capability} 200': dataset('$response.body#/_meta/dataset_id'),
  'POST /api/v2/mcp/oauth/register 201': {
    Token: {
      to: 'POST /api/v2/mcp/oauth/token',
      description: 'ask for a token as the registered client',
      requestBody: { client_id: '$response.body#/client_id', grant_type: 'authorization_code' },
    },
  },
};

/** `#/paths/~1enrich~1runs~1{run_id}/get` for `GET /enrich/runs/{run_id}` (RFC 6901 escaping). */
function operationRef(operation: string): string {
  const [method, path] = operation.split(' ') as [string, string];
  return `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}`;
}

/** The parts of the built OpenAPI document this module reads and writes. */
interface Operation {
  responses?: Record<string, { links?: object } | undefined>;
}
interface Document {
  paths?: Record<string, Record<string, Operation | undefined> | undefined>;
}

/**
 * Adds the links to the built document, so Schemathesis' stateful phase (and a reader) follows a
 * created dataset, run, session, job or client to the routes that use it. A link to or from an
 * operation the document does not have is an error: a renamed route must not silently drop one.
 */
export function withLinks<T extends object>(built: T): T {
  // The document @fastify/swagger built: its own types do not index paths by a method string.
  const document = built as Document;
  const operationAt = (key: string): Operation => {
    const [method, path] = key.split(' ') as [string, string];
    const operation = document.paths?.[path]?.[method.toLowerCase()];
    if (!operation) throw new Error(`OpenAPI link: no operation ${key}`);
    return operation;
  };
  for (const [from, links] of Object.entries(LINKS)) {
    const status = from.slice(from.lastIndexOf(' ') + 1);
    const response = operationAt(from.slice(0, from.lastIndexOf(' '))).responses?.[status];
    if (!response) throw new Error(`OpenAPI link: no ${status} answer of ${from}`);
    response.links = Object.fromEntries(
      Object.entries(links).map(([name, { to, description, parameters, requestBody }]) => {
        operationAt(to);
        return [name, { operationRef: operationRef(to), description, parameters, requestBody }];
      }),
    );
  }
  return built;
}
