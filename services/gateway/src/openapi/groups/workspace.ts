import type { OperationGroup } from '../operation-docs';

export const meta: OperationGroup = {
  tag: 'Meta',
  about: 'Probes and the way in for humans; no key needed.',
  operations: {
    'GET /health': {
      summary: 'Liveness',
      spec: 'Bootstrap and distribution, GET /health',
      does: 'Answers `{status: ok}` while the process answers at all.',
    },
    'GET /healthz': {
      summary: 'Liveness (Kubernetes spelling)',
      spec: 'Bootstrap and distribution, GET /health',
      does: 'The same answer as GET /health, at the path Kubernetes probes conventionally use.',
    },
    'GET /ready': {
      summary: 'Readiness',
      spec: 'Bootstrap and distribution (readiness is an addition to the spec)',
      does: 'Whether every service behind the gateway is serving: 200 `ready`, or 503 naming those that are not.',
    },
    'GET /': {
      summary: 'Redirect to the dashboard',
      spec: 'Bootstrap and distribution, GET /',
      does: 'Sends a browser to the dashboard (302).',
    },
  },
};

export const keys: OperationGroup = {
  tag: 'Keys',
  about: "API keys: the bearer every protected route needs. A key's plaintext is shown once.",
  operations: {
    'POST /api/v2/keys': {
      summary: 'Mint an API key',
      spec: 'API keys, POST /api/v2/keys',
      does: 'Creates a key for the workspace; the answer holds its plaintext, shown this once and never again.',
      body: { name: 'ci pipeline' },
    },
    'GET /api/v2/keys': {
      summary: 'List API keys',
      spec: 'API keys, GET /api/v2/keys',
      does: "The workspace's keys: metadata only (name, prefix, who made it, last use), never a secret.",
    },
    'DELETE /api/v2/keys/{key_id}': {
      summary: 'Revoke an API key',
      spec: 'API keys, DELETE /api/v2/keys/{key_id}',
      does: 'Revokes a key at once; a member may revoke only keys they minted, the owner any.',
    },
  },
};

export const datasets: OperationGroup = {
  tag: 'Datasets',
  about: 'Stored rows: paid answers, enrichment output and uploads, paged and exported as CSV.',
  operations: {
    'POST /api/v2/datasets': {
      summary: 'Create a dataset from rows',
      spec: 'Datasets, POST /api/v2/datasets',
      does: 'Stores inline `rows` (up to 10,000) as a new dataset, counted in the workspace quota. Free.',
      body: { name: 'leads', rows: [{ full_name: 'Ada Lovelace', company_domain: 'acme.com' }] },
    },
    'GET /api/v2/datasets': {
      summary: 'List datasets',
      spec: 'Datasets, GET /api/v2/datasets',
      does: "The workspace's datasets, newest first, optionally those of one session; paged by offset and limit.",
      query: { offset: 0, limit: 10 },
    },
    'GET /api/v2/datasets/{ds_id}': {
      summary: "Read a dataset's metadata",
      spec: 'Datasets, GET /api/v2/datasets/{ds_id}',
      does: "Name, columns, row count and enrichment status (a run's progress shows here).",
    },
    'DELETE /api/v2/datasets/{ds_id}': {
      summary: 'Delete a dataset',
      spec: 'Datasets, DELETE /api/v2/datasets/{ds_id}',
      does: 'Deletes the dataset and its rows, freeing its share of the quota.',
    },
    'GET /api/v2/datasets/{ds_id}/rows': {
      summary: "Page through a dataset's rows",
      spec: 'Datasets, GET /api/v2/datasets/{ds_id}/rows',
      does: 'Rows in their stored order, paged by offset and limit (default 50).',
      query: { offset: 0, limit: 50 },
    },
    'POST /api/v2/datasets/{ds_id}/rows': {
      summary: 'Append rows to a dataset',
      spec: 'Datasets (appending is an addition to the spec, decision 0047)',
      does:
        'Appends `rows` at `offset`, the row count last read (left out: the current count); a stale offset is ' +
        'a 409, the same rows sent again a harmless replay.',
      body: { rows: [{ full_name: 'Grace Hopper', company_domain: 'navy.mil' }] },
    },
    'GET /api/v2/datasets/{ds_id}/csv': {
      summary: 'Export a dataset as CSV',
      spec: 'Datasets, GET /api/v2/datasets/{ds_id}/csv',
      does: 'Every row as CSV, with cells that a spreadsheet would run as formulas neutralised.',
    },
  },
};

export const feedback: OperationGroup = {
  tag: 'Feedback',
  about: 'Product feedback and the public support form.',
  operations: {
    'POST /api/v2/feedback': {
      summary: 'Send product feedback',
      spec: 'Feedback and support, POST /api/v2/feedback',
      does: "Files a report; who sent it is taken from the key. Its first line is the report's title.",
      body: { message: 'Search results\nThe Berlin search returned people from Munich.', category: 'technical' },
    },
    'GET /api/v2/feedback': {
      summary: "List the workspace's feedback",
      spec: 'Feedback and support, GET /api/v2/feedback',
      does: "The workspace's reports, newest first, paged by offset and limit.",
      query: { offset: 0, limit: 10 },
    },
    'POST /api/v2/support': {
      summary: 'Contact support',
      spec: 'Feedback and support, POST /api/v2/support',
      does:
        'The feedback widget: always emails the support inbox; a signed-in `technical` report is also stored ' +
        'as feedback. A key is optional; without one give an `email` to be answered at.',
      body: { message: 'How do I raise my spending cap?', category: 'billing', email: 'ada@acme.com' },
    },
  },
};
