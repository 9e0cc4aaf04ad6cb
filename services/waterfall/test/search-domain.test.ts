import { catalog } from '@rde/proto';
import { searchStepOf } from '../src/domain/search/capabilities';
import { bindFilters, FILTER_KEYS } from '../src/domain/search/filters';
import { pagePlan } from '../src/domain/search/pages';
import { PeopleSet } from '../src/domain/search/people';
import { decideStep, requestsOf, worstCaseOf } from '../src/domain/search/plan';
import { RdeError } from '@rde/platform';

function step(capabilities: object, cost: { unit: string; millicredits: number }, maxRows: number) {
  return searchStepOf(
    catalog.ChainStep.fromPartial({
      tool: 'vendor',
      method: 'search',
      capabilitiesJson: Buffer.from(JSON.stringify(capabilities)),
      cost: { unit: cost.unit, amount: { millicredits: cost.millicredits } },
      maxRows,
    }),
  );
}

const pagedDatabase = step(
  {
    filters: ['titles', 'company_names', 'departments'],
    silently_ignores: ['min_experience_years'],
    bind: {
      titles: { to: 'title', as: 'list' },
      company_names: { to: 'company_name', as: 'list' },
      departments: { to: 'department', as: 'list' },
    },
    paging: { style: 'page', size: 'per_page', page: 'page' },
  },
  { unit: 'hit', millicredits: 1000 },
  25,
);

const anchoredWeb = step(
  {
    filters: ['company_names', 'titles'],
    company_anchor: { to: 'company', as: 'first' },
    bind: { titles: { to: 'title', as: 'first' } },
    paging: { style: 'none', size: 'max_results' },
  },
  { unit: 'call', millicredits: 1000 },
  10,
);

function refusal(run: () => unknown): RdeError {
  try {
    run();
  } catch (error) {
    if (error instanceof RdeError) return error;
  }
  throw new Error('expected a refusal');
}

describe('filter binding', () => {
  test('flat and nested filters bind, synonyms to canonical keys, and the query wins per field', () => {
    const bound = bindFilters({
      title: 'CTO',
      company: 'Acme',
      query: { titles: ['VP Engineering'], location: 'berlin', shoe_size: 9 },
      colour: 'blue',
      limit: 5,
      coverage: 'max',
    });
    expect(bound.filters).toEqual({ titles: ['VP Engineering'], company_names: ['Acme'], locations: ['berlin'] });
    expect(bound.ignored).toEqual(['colour', 'query.shoe_size']);
  });

  test('nothing bound is a 400 naming the unplaced keys and listing the filters', () => {
    const error = refusal(() => bindFilters({ colour: 'blue', limit: 3 }));
    expect(error.httpStatus).toBe(400);
    expect(error.body).toMatchObject({ unplaced: ['colour'], filters: [...FILTER_KEYS] });
  });

  test.each([
    [{ titles: 5 }, 'titles'],
    [{ titles: [] }, 'titles'],
    [{ titles: [''] }, 'titles'],
    [{ seniority: 'astronaut' }, 'seniority'],
    [{ min_experience_years: -1 }, 'min_experience_years'],
    [{ months_in_role: { gte: 'six' } }, 'months_in_role'],
    [{ skills: Array.from({ length: 101 }, (_, i) => `skill ${i}`) }, 'skills'],
  ])('a badly typed filter %j is a 422 naming it', (body, key) => {
    const error = refusal(() => bindFilters(body));
    expect(error.httpStatus).toBe(422);
    expect(error.body.detail).toEqual([expect.objectContaining({ loc: ['body', key] })]);
  });

  test('seniority synonyms bind to the canonical levels', () => {
    expect(bindFilters({ seniority: ['CXO', 'junior', 'VP'] }).filters.seniority).toEqual(['c_suite', 'entry', 'vp']);
  });
});

describe('page sizing', () => {
  test.each([
    [130, 25, 6, 22],
    [25, 25, 1, 25],
    [26, 25, 2, 13],
    [3, 25, 1, 3],
    [250, 100, 3, 84],
  ])('%i wanted at %i a page is %i pages of %i', (wanted, size, pages, perPage) => {
    expect(pagePlan(wanted, size)).toEqual({ pages, perPage });
  });

  test('requests number their pages and a single-page source asks once', () => {
    const requests = requestsOf(pagedDatabase, { filters: { titles: ['CTO'] }, dropped: [], wanted: 130 });
    expect(requests.map((request) => request.payload)).toEqual(
      [1, 2, 3, 4, 5, 6].map((page) => ({ title: ['CTO'], per_page: 22, page })),
    );
    expect(requestsOf(anchoredWeb, { filters: {}, dropped: [], wanted: 40, company: 'Acme' })).toEqual([
      { payload: { company: 'Acme', max_results: 10 }, rows: 10 },
    ]);
  });

  test('the worst case is per page found for per-hit sources and per request per company for per-call ones', () => {
    expect(worstCaseOf(pagedDatabase, 130)).toBe(6000);
    expect(worstCaseOf(anchoredWeb, 40, 3)).toBe(3000);
  });
});

describe('step decisions from declared capabilities', () => {
  test.each([
    [pagedDatabase, { titles: ['CTO'] }, { run: true }],
    [pagedDatabase, { company_domains: ['acme.com'] }, { run: false, outcome: 'cant_scope_company' }],
    [pagedDatabase, { titles: ['CTO'], skills: ['Go'] }, { run: false, outcome: 'unsupported_fields' }],
    [pagedDatabase, { titles: ['CTO'], min_experience_years: 5 }, { run: false, outcome: 'filter_not_bound' }],
    [anchoredWeb, { titles: ['CTO'] }, { run: false, outcome: 'skip' }],
    [anchoredWeb, { company_names: ['Acme', 'Globex'] }, { run: true, companies: ['Acme', 'Globex'] }],
  ])('%#', (declared, filters, expected) => {
    expect(decideStep(declared, filters)).toMatchObject(expected);
  });

  test('a relaxed retry leaves the dropped fields out', () => {
    expect(decideStep(pagedDatabase, { titles: ['CTO'], skills: ['Go'] }, ['skills'])).toMatchObject({ run: true });
  });
});

describe('deduplication', () => {
  test('the same LinkedIn URL, or the same name at the same company, is one person', () => {
    const people = new PeopleSet();
    expect(
      people.add({ name: 'Ann Lee', company: 'Acme', linkedin_url: 'https://www.linkedin.com/in/ann', _source: 'a' }),
    ).toBe(true);
    expect(people.add({ name: 'A. Lee', linkedin_url: 'http://linkedin.com/in/ann/', _source: 'b' })).toBe(false);
    expect(people.add({ name: 'ANN LEE', company: 'ACME', _source: 'c' })).toBe(false);
    expect(people.add({ name: 'Ann Lee', company: 'Globex', _source: 'd' })).toBe(true);
    expect(people.size).toBe(2);
  });
});
