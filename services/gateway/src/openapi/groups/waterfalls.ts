import type { OperationGroup } from '../operation-docs';
import { EXAMPLE_PERSON } from './tools';

export const search: OperationGroup = {
  tag: 'Search',
  about: 'People search: filters walked over the people databases and the public web, billed per person found.',
  operations: {
    'POST /search/{capability}': {
      summary: 'Search for people',
      spec: 'Search, rules 1–11',
      does:
        'Walks the people databases in order (then the public web when a company is named) until `limit` people ' +
        'are found, deduplicated, each tagged `_source`; `coverage: max` runs every source. Billed per returned ' +
        'person; `dry_run: true` lists the steps that would run and their worst-case price, spending nothing.',
      params: { capability: 'people_search' },
      body: { query: { titles: ['Software Engineer'], locations: ['Berlin'] }, limit: 5, dry_run: true },
    },
  },
};

export const enrichment: OperationGroup = {
  tag: 'Enrichment',
  about:
    'The four enrichment waterfalls (work email, personal email, LinkedIn profile, phone) and their provider jobs.',
  operations: {
    'POST /enrich/{capability}': {
      summary: 'Enrich rows',
      spec: 'Enrichment waterfalls, rules 1–9',
      does:
        "Walks each row through the capability's provider chain and stops at the first real hit; only that step " +
        'is billed, misses are free. Several rows answer at once with a dataset and run id and fill in as ' +
        'providers answer. `dry_run: true` prices the chain and spends nothing.',
      params: { capability: 'email_enrichment' },
      body: { rows: [EXAMPLE_PERSON], dry_run: true },
    },
    'GET /enrich/jobs/{provider}/{job_id}': {
      summary: 'Poll a provider job',
      spec: 'Enrichment waterfalls, rule 8',
      does:
        "A still-enriching provider job's state and, once done, its result; only the workspace that started " +
        'the job may read it. Free.',
    },
    'POST /tools/enrich_jobs/{provider}': {
      summary: 'Resume a provider job',
      spec: 'Enrichment waterfalls, rule 8',
      does:
        "The `resume` a still-enriching step names: body `{payload: {job_id}}` answers the job's state or " +
        'result, like GET /enrich/jobs/{provider}/{job_id}. Free.',
    },
  },
};

export const runs: OperationGroup = {
  tag: 'Runs',
  about: 'Dataset enrichment runs: enrichment steps over a stored dataset or inline rows, polled by run id.',
  operations: {
    'POST /enrich/run': {
      summary: 'Start a dataset enrichment run',
      spec: 'Dataset enrichment runs, rules 1–4',
      does:
        'Runs the `steps` over the rows of a dataset (`input`) or `input_rows`, optionally a `range` slice, into ' +
        'a new dataset or in place; answers a summary, never rows. `detach: true` answers a run handle to poll. ' +
        '`dry_run: true` (or `estimate`) prices the run and spends nothing.',
      body: { input_rows: [EXAMPLE_PERSON], steps: ['email_enrichment'], dry_run: true },
    },
    'GET /enrich/runs/{run_id}': {
      summary: 'Poll a run',
      spec: 'Dataset enrichment runs, GET /enrich/runs/{run_id}',
      does:
        "A run's status, dataset id and progress; once completed, credits charged, summary, columns and a " +
        'five-row sample. Free.',
    },
    'POST /enrich/runs/{run_id}/cancel': {
      summary: 'Cancel a run',
      spec: 'Dataset enrichment runs (cancelling is an addition to the spec, decision 0033)',
      does: 'Stops a running run: rows not yet enriched are not run or billed; what is done stays done.',
    },
  },
};

export const qualify: OperationGroup = {
  tag: 'Qualify',
  about: 'Scoring candidates against a job description from their dated work history.',
  operations: {
    'POST /qualify': {
      summary: 'Score candidates against a job spec',
      spec: 'Qualify, rules 1–5',
      does:
        'Ranks `candidates` by how their work history fits `job_spec`, each with a `qualify` cell (score, basis, ' +
        'strengths, gaps); `min_score` keeps those at or above it; `async: true` detaches into a background run. ' +
        'Malformed bodies are refused before any scoring.',
      body: {
        job_spec: 'Senior backend engineer, Go and Kafka, 5+ years',
        candidates: [
          {
            full_name: 'Ada Lovelace',
            profile: { experience: [{ title: 'Backend Engineer', company: 'Acme', start_date: '2018-01' }] },
          },
        ],
      },
    },
  },
};
