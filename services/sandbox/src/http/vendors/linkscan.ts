import { HARD_CASE_COMPANIES } from '../../domain/hard-cases';
import { metroCitiesIn } from '../../domain/locations';
import type { Person } from '../../domain/people';
import { searchPeople } from '../../domain/search';
import type { Universe } from '../../domain/universe';
import { object, text } from '../schema';
import { defineVendor } from '../define-vendor';

/**
 * LinkScan: a LinkedIn profile search. Rows are a title line, a link and a snippet, nothing
 * structured, from a stale index: people who recently left a company still show it as their
 * employer. Every row needs verification before use. Billed per request.
 */

interface SearchQuery {
  company?: string;
  title?: string;
  location?: string;
  keywords?: string;
  count?: number;
  start?: number;
}

const MAX_COUNT = 10;

const searchSchema = {
  querystring: {
    ...object({
      company: text,
      title: text,
      location: text,
      keywords: text,
      count: { type: 'integer', minimum: 1, maximum: MAX_COUNT, default: MAX_COUNT },
      start: { type: 'integer', minimum: 0, maximum: 990, default: 0 },
    }),
    anyOf: [{ required: ['company'] }, { required: ['title'] }, { required: ['keywords'] }],
  },
};

export const linkscan = defineVendor('linkscan', {
  descriptor: {
    endpoints: [
      {
        name: 'search',
        method: 'GET',
        path: '/v1/profiles',
        purpose: 'LinkedIn profiles matching a company, title, location or keywords',
      },
    ],
    cost: { per: 'call', credits: 1, note: 'each request, found or not (also sent as the X-Credits-Used header)' },
    hitRate: 0.5,
    capabilities: {
      filters: ['company_names', 'titles', 'locations', 'keywords'],
      locationTokens: { style: 'free_text' },
      companyMatch: 'loose',
      maxResults: MAX_COUNT,
      verificationRequired: true,
      quirks: ['rows are unstructured text', 'people who recently moved still show their previous employer'],
    },
  },
  knobDefaults: { latency: { median: 700, p95: 2000 } },
  errorBody: (status, message) => ({ status, message }),
  routes(routes, vendor) {
    routes.on<{ Querystring: SearchQuery }>('search', searchSchema, async (request, reply) => {
      const { company, title, location, keywords, count = MAX_COUNT, start = 0 } = request.query;
      const universe = vendor.universe;
      const companies = company === undefined ? undefined : universe.companies.indexesMatchingLoosely(company);
      const cities = location === undefined ? [] : metroCitiesIn(location);
      const current = searchPeople(
        universe,
        {
          companies,
          titles: title === undefined ? undefined : [title],
          cities: cities.length > 0 ? cities : undefined,
          keywords: keywords === undefined ? undefined : [keywords],
        },
        { offset: 0, limit: start + count, include: vendor.knows },
      );
      const stale = companies ? formerStaffStillListed(universe, companies).filter(vendor.knows) : [];
      const rows = [
        ...current.ids.map((id) => row(universe.person(id), 'current')),
        ...stale.map((id) => row(universe.person(id), 'previous')),
      ];
      reply.header('x-credits-used', '1');
      return { results: rows.slice(start, start + count), total: current.total + stale.length, start, count };
    });
  },
});

/** Staff who joined a company recently from one of `companies`: the stale index still files them there. */
function formerStaffStillListed(universe: Universe, companies: readonly number[]): number[] {
  const names = new Set(companies.map((c) => universe.companies.get(c).name));
  return HARD_CASE_COMPANIES.flatMap((hiring, index) => {
    const from = hiring.traits?.recentHiresFrom;
    return from !== undefined && names.has(from) ? universe.staffOf(index) : [];
  });
}

function row(person: Person, listed: 'current' | 'previous') {
  const job =
    listed === 'previous' && person.experience[1]
      ? person.experience[1]
      : { title: person.title, company: person.company.name };
  return {
    title: `${person.fullName} - ${job.title} - ${job.company} | LinkedIn`,
    link: person.linkedinUrl,
    snippet: `${person.city.name}, ${person.city.region} · ${job.title} at ${job.company}`,
  };
}
