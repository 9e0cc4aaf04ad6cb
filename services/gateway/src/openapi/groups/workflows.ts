import type { OperationGroup } from '../operation-docs';

/** A small workflow that works as sent: find engineers, then score them (decision 0072). */
const EXAMPLE_DEFINITION = {
  name: 'berlin-engineers',
  description: 'Find engineers in a city, then score them against a role',
  trigger: { type: 'manual' },
  input: {
    schema: {
      type: 'object',
      properties: { city: { type: 'string', maxLength: 100 } },
      required: ['city'],
    },
  },
  steps: [
    {
      id: 'find',
      uses: 'search.people_search',
      with: { titles: ['Software Engineer'], locations: ['{{input.city}}'], limit: 5 },
    },
    {
      id: 'score',
      uses: 'qualify',
      with: { job_spec: 'Senior backend engineer, Go and Kafka', candidates: '{{steps.find.output.results}}' },
    },
  ],
  output: { ranked: '{{steps.score.output.candidates}}' },
};

export const workflows: OperationGroup = {
  tag: 'Workflows',
  about:
    'Stored workflow definitions: steps that call search, enrichment (`enrich.<capability>`, or `enrich.run`: a dataset enrichment run waited for to its end), qualify, a catalog method or a free dataset operation (`dataset.create`, `dataset.append`, `dataset.rows`), wired by `{{…}}` references, linted, applied as numbered versions, enabled or disabled.',
  operations: {
    'POST /api/v2/workflows/lint': {
      summary: 'Lint a workflow definition',
      spec: 'Workflows, POST /api/v2/workflows/lint',
      does: 'Checks a definition (or a bare `{config, trigger}`) without saving it: `{valid, problems}`, each problem with a JSON Pointer `path`, a `code` and a `message`. Free.',
      body: EXAMPLE_DEFINITION,
    },
    'POST /api/v2/workflows/apply': {
      summary: 'Create or update a workflow',
      spec: 'Workflows, POST /api/v2/workflows/apply; Versioning 3',
      does: 'Lints, then creates the workflow named by the definition (201) or stores a changed definition as version N+1 (200); an identical one answers `changed: false`. 422 lists the lint problems. Free.',
      body: EXAMPLE_DEFINITION,
    },
    'GET /api/v2/workflows/schema': {
      summary: 'The definition schema, or a step input schema',
      spec: 'Workflows, GET /api/v2/workflows/schema',
      does: 'Without `subject`, the JSON Schema of a definition; with `subject=<uses>` (e.g. `search.people_search`, `mailfinder.find`, `enrich.run`, `dataset.create`), what that step takes in `with`.',
      query: { subject: 'search.people_search' },
    },
    'GET /api/v2/workflows': {
      summary: 'List workflows',
      spec: 'Workflows, GET /api/v2/workflows',
      does: "The workspace's workflows, most recently changed first (limit 50 by default), without definitions.",
    },
    'GET /api/v2/workflows/{workflow_id}': {
      summary: 'Read a workflow',
      spec: 'Workflows, GET /api/v2/workflows/{workflow_id}; Versioning 3',
      does: 'The workflow at its latest version, or at `version`, with that version’s definition.',
    },
    'DELETE /api/v2/workflows/{workflow_id}': {
      summary: 'Delete a workflow',
      spec: 'Workflows, DELETE /api/v2/workflows/{workflow_id}',
      does: 'Removes the workflow from every read and frees its name: `{ok: true, deleted}`.',
    },
    'POST /api/v2/workflows/{workflow_id}/enable': {
      summary: 'Enable a workflow',
      spec: 'Workflows; States and transitions (Workflow: any → enabled)',
      does: 'Sets `status: enabled` from any state; the workflow record answers.',
    },
    'POST /api/v2/workflows/{workflow_id}/disable': {
      summary: 'Disable a workflow',
      spec: 'Workflows; States and transitions (Workflow: any → disabled)',
      does: 'Sets `status: disabled` from any state; the workflow record answers.',
    },
    'POST /api/v2/workflows/call': {
      summary: 'Run a workflow',
      spec: 'Workflows, POST /api/v2/workflows/call; Limits (workspace cap only)',
      does: 'Queues a run of the latest enabled version (the run is pinned to it) after checking `input` against its input schema: 202 with the run (`status: queued`). `live` bills each step (only the workspace cap applies; ledger rows carry `workflow_run_id`), `dry_run` calls no vendor and estimates each step, `smoke_test` runs live on one item per `for_each` and one person per search.',
      body: { workflow_id: 'wf_3f1c2a9e8b7d6c5b4a392817', input: { city: 'Berlin' }, mode: 'dry_run' },
    },
    'GET /api/v2/workflows/runs': {
      summary: 'Recent runs of the workspace',
      spec: 'Workflows, GET /api/v2/workflows/runs; Limits (list defaults)',
      does: 'Runs of every workflow, newest first (limit 50 by default), without step outputs.',
    },
    'GET /api/v2/workflows/{workflow_id}/runs': {
      summary: 'Runs of a workflow',
      spec: 'Workflows, GET /api/v2/workflows/{workflow_id}/runs; Limits (list defaults)',
      does: 'The workflow’s runs, newest first (limit 25 by default), without step outputs.',
    },
    'GET /api/v2/workflows/{workflow_id}/runs/{run_id}': {
      summary: 'Read a run',
      spec: 'Workflows, GET /api/v2/workflows/{workflow_id}/runs/{run_id}',
      does: 'Status (`queued`, `running`, `succeeded`, `failed`, `cancelled`), the pinned version, and per step its status, timings, charge, error and output.',
    },
    'POST /api/v2/workflows/{workflow_id}/runs/{run_id}/cancel': {
      summary: 'Cancel a run',
      spec: 'Workflows; States and transitions (Workflow run: queued → cancelled)',
      does: 'A queued run ends `cancelled` at once; a running one stops before its next step (the step in flight finishes and is billed). An ended run answers as it is.',
    },
    'POST /api/v2/workflows/{workflow_id}/webhook/rotate': {
      summary: 'Rotate a webhook id',
      spec: 'Webhook triggers (decision 0075; not in the spec)',
      does: 'Issues a new inbound webhook id for a webhook workflow, shown this once; the old URL answers 404 at once. 409 for a manual workflow.',
    },
  },
};
