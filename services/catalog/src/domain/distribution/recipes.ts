/** The onboarding recipe cards: what a new user does first, each step a request they can send as is. */

export interface RecipeStep {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: object;
  readonly explains: string;
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
];
