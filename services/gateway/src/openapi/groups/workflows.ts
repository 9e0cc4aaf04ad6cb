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
    'Stored workflow definitions: steps that call search, enrichment, qualify or a catalog method, wired by `{{…}}` references, linted, applied as numbered versions, enabled or disabled.',
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
      does: 'Without `subject`, the JSON Schema of a definition; with `subject=<uses>` (e.g. `search.people_search`, `mailfinder.find`), what that step takes in `with`.',
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
  },
};
