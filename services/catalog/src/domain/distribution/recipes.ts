/** The onboarding recipe cards: what a new user does first, each step a request they can send as is. */

export interface RecipeStep {
  readonly method: 'GET' | 'POST';
  /** `{<savesAs>.<field>}` in it stands for that field of an earlier answer. */
  readonly path: string;
  readonly body?: object;
  readonly explains: string;
  /** The name later paths give this answer. */
  readonly savesAs?: string;
  /** A route that takes no key: an inbound webhook, whose URL is the secret. */
  readonly noKey?: boolean;
  /** Sent again until the answer's `field` holds one of `values`: a run read until it ends. */
  readonly repeatUntil?: { readonly field: string; readonly values: readonly string[] };
}

export interface Recipe {
  readonly id: string;
  readonly title: string;
  readonly summary: string;
  readonly requests: readonly RecipeStep[];
}

const engineers = { titles: ['Software Engineer', 'Backend Engineer'], locations: ['Berlin'] };
const rows = [
  { first_name: 'Ada', last_name: 'Lovelace', company_domain: 'acme.com' },
  { first_name: 'Grace', last_name: 'Hopper', company_domain: 'farovia.com' },
];
/** What a careers form posts for each applicant: the webhook workflow's input. */
const applicantSchema = {
  type: 'object',
  properties: {
    first_name: { type: 'string', maxLength: 100 },
    last_name: { type: 'string', maxLength: 100 },
    company_domain: { type: 'string', maxLength: 253 },
    title: { type: 'string', maxLength: 200 },
    role: { type: 'string', maxLength: 2000 },
  },
  required: ['first_name', 'last_name', 'company_domain', 'title', 'role'],
};
const newApplicant = {
  name: 'new-applicant',
  description: 'For each applicant the careers form posts: their work email, then their fit for the role',
  trigger: { type: 'webhook' },
  input: { schema: applicantSchema },
  steps: [
    {
      id: 'email',
      uses: 'enrich.email_enrichment',
      with: {
        payload: {
          first_name: '{{input.first_name}}',
          last_name: '{{input.last_name}}',
          company_domain: '{{input.company_domain}}',
        },
      },
    },
    {
      id: 'score',
      uses: 'qualify',
      with: {
        job_spec: '{{input.role}}',
        candidates: [
          {
            full_name: '{{input.first_name}} {{input.last_name}}',
            title: '{{input.title}}',
            company_domain: '{{input.company_domain}}',
          },
        ],
        allow_thin_profiles: true,
      },
    },
  ],
  output: {
    email: '{{steps.email.output.results.0.email}}',
    score: '{{steps.score.output.candidates.0.qualify.score}}',
  },
};
const applicant = {
  first_name: 'Richard',
  last_name: 'Barnes',
  company_domain: 'farovia.com',
  title: 'Backend Engineer',
  role: 'Senior Backend Engineer: TypeScript, Kafka, PostgreSQL',
};
const RUN_ENDED = ['succeeded', 'failed', 'cancelled'];

const role = (title: string, company: string, start: string, end: string | null) => ({
  title,
  company,
  start,
  end,
  is_current: end === null,
});

export const RECIPES: readonly Recipe[] = [
  {
    id: 'find-engineers',
    title: 'Find engineers at a company or in a city',
    summary:
      'Search people by title and place (add company_names or company_domains to stay at one company). ' +
      'Price it first with a dry run: a search is billed per person found, never for an empty page.',
    requests: [
      { method: 'GET', path: '/tools?filter=search', explains: 'the search tools and what each costs' },
      {
        method: 'POST',
        path: '/search/people_search',
        body: { query: engineers, limit: 5, dry_run: true },
        explains: 'the plan and its worst case; nothing is spent',
      },
      {
        method: 'POST',
        path: '/search/people_search',
        body: { query: engineers, limit: 5 },
        explains: 'the search itself: each row says which source found it',
      },
    ],
  },
  {
    id: 'enrich-a-csv',
    title: 'Enrich a CSV of contacts with work emails',
    summary:
      'Send the rows (from a CSV: one object per line, its header as keys) as an enrichment run. ' +
      'Estimate first; then run it detached and poll the run; only hits are billed. ' +
      'With the rde client: `rde enrich email_enrichment --input contacts.csv`.',
    requests: [
      {
        method: 'POST',
        path: '/enrich/run',
        body: { input_rows: rows, steps: ['email_enrichment'], estimate: true },
        explains: 'what the run would cost at most; nothing is held or called',
      },
      {
        method: 'POST',
        path: '/enrich/run',
        body: { input_rows: rows, steps: ['email_enrichment'], detach: true, output_name: 'contacts with emails' },
        explains: 'the run: poll GET /enrich/runs/{run_id} until its status is completed, then read its dataset',
      },
    ],
  },
  {
    id: 'qualify-a-shortlist',
    title: 'Qualify a shortlist against a role',
    summary:
      'Score candidates 0 to 10 against a free-text job spec from their dated work history; scoring is free. ' +
      'Pass rows from a search or a profile enrichment as they are.',
    requests: [
      {
        method: 'POST',
        path: '/qualify',
        body: {
          job_spec: 'Senior Backend Engineer, 5+ years, TypeScript, Kafka, PostgreSQL',
          candidates: [
            {
              full_name: 'Ada Strong',
              profile: {
                skills: ['TypeScript', 'Kafka', 'PostgreSQL'],
                experience: [
                  role('Senior Backend Engineer', 'Streamly', '2020-01', null),
                  role('Backend Engineer', 'Shopco', '2016-01', '2019-12'),
                ],
              },
            },
            { full_name: 'Dan Draw', work_experience: [role('Product Designer', 'Pixel', '2019-01', null)] },
          ],
          min_score: 5,
        },
        explains: 'each kept candidate with its score, strengths and gaps',
      },
    ],
  },
  {
    id: 'webhook-workflow',
    title: 'Build a webhook workflow: every applicant your form posts, enriched and scored',
    summary:
      'A stored workflow with a webhook trigger: its URL takes any JSON object, checks it against the ' +
      'input schema and runs the steps on it (here the work email, billed only on a hit, then a free ' +
      'score against the role). The URL is the secret: it is shown once, on the apply that makes the ' +
      'workflow a webhook one. With the rde client: the definition saved as new-applicant.json, ' +
      '`rde workflows apply new-applicant.json` prints the URL; `rde workflows runs new-applicant` lists the runs.',
    requests: [
      {
        method: 'POST',
        path: '/api/v2/workflows/lint',
        body: newApplicant,
        explains: 'free, stores nothing: each problem with a path into the definition',
      },
      {
        method: 'POST',
        path: '/api/v2/workflows/apply',
        body: newApplicant,
        savesAs: 'workflow',
        explains:
          'stores version 1 (201); this answer alone carries webhook_url: keep it secret. Lost or leaked: ' +
          'POST /api/v2/workflows/{workflow_id}/webhook/rotate issues a new one and retires the old',
      },
      {
        method: 'POST',
        path: '{workflow.webhook_url}',
        body: applicant,
        savesAs: 'event',
        noKey: true,
        explains: 'what the form sends, with no key: 202 with the run_id of the live run it started',
      },
      {
        method: 'GET',
        path: '/api/v2/workflows/{workflow.id}/runs/{event.run_id}',
        repeatUntil: { field: 'status', values: RUN_ENDED },
        explains:
          'the run, each step with its status and charge, read until it ends; its output has the ' +
          'email found and the 0-10 score',
      },
    ],
  },
];
