import { METROS, metroOf } from '../../domain/locations';
import { searchPeople } from '../../domain/search';
import type { Universe } from '../../domain/universe';
import { SENIORITIES } from '../../domain/vocabulary';
import { object, text, textList } from '../schema';
import { defineVendor } from '../define-vendor';

/**
 * ProspectDB: a people database that pages 25 at a time and bills per page. It cannot express
 * skills, tenure windows or firmographics, and says nothing when sent them: unknown query
 * parameters, unknown geo codes and `min_years` are dropped silently.
 */

const PAGE_SIZE = 25;
const LEVELS = ['Entry', 'Senior', 'Manager', 'Director', 'VP', 'C-Level'] as const;
type Level = (typeof LEVELS)[number];

interface SearchQuery {
  title?: string[];
  geo?: string[];
  company_domain?: string[];
  company_name?: string[];
  seniority?: Level[];
  department?: string[];
  q?: string;
  min_years?: number;
  page?: number;
  per_page?: number;
}

const searchSchema = {
  // Unknown parameters are allowed and ignored, as this vendor does.
  querystring: object(
    {
      title: textList,
      geo: textList,
      company_domain: textList,
      company_name: textList,
      seniority: { type: 'array', items: { enum: LEVELS }, minItems: 1 },
      department: textList,
      q: text,
      min_years: { type: 'integer', minimum: 0 },
      page: { type: 'integer', minimum: 1, maximum: 400, default: 1 },
      per_page: { type: 'integer', minimum: 1, maximum: PAGE_SIZE, default: PAGE_SIZE },
    },
    [],
    true,
  ),
};

const geoSchema = { querystring: object({ q: { type: 'string', maxLength: 100 } }) };

export const prospectdb = defineVendor('prospectdb', {
  descriptor: {
    endpoints: [
      {
        name: 'search',
        method: 'GET',
        path: '/api/v1/people',
        purpose: 'people search, one page of up to 25 a request',
      },
      { name: 'geo', method: 'GET', path: '/api/v1/geo', purpose: 'the geo codes its location filter accepts (free)' },
    ],
    cost: {
      per: 'hit',
      credits: 1,
      note: 'each page that returns at least one person; an empty page and geo look-ups are free',
    },
    hitRate: 0.6,
    capabilities: {
      filters: ['titles', 'locations', 'company_domains', 'company_names', 'seniority', 'keywords', 'departments'],
      silentlyIgnores: ['min_experience_years'],
      locationTokens: { style: 'metro_code', tokens: METROS.map((metro) => metro.code) },
      companyMatch: 'exact',
      pageSize: PAGE_SIZE,
      quirks: [
        'parameters it does not know (skills, tenure, firmographics) are ignored without error',
        'an unknown geo code is dropped without error; if none is left the search is not located',
        'min_years is accepted and not applied',
        'geo codes are metro areas: US-SFBAY returns Oakland and San Jose too',
      ],
    },
  },
  knobDefaults: { latency: { median: 250, p95: 900 } },
  errorBody: (status, message) => ({
    errors: [
      {
        code: status === 401 ? 'unauthorized' : status === 429 ? 'too_many_requests' : String(status),
        detail: message,
      },
    ],
  }),
  routes(routes, vendor) {
    routes.on<{ Querystring: SearchQuery }>('search', searchSchema, async (request, reply) => {
      const query = request.query;
      const { page = 1, per_page: perPage = PAGE_SIZE } = query;
      const cities = query.geo?.flatMap(
        (code) => METROS.find((metro) => metro.code === code.toUpperCase())?.cities ?? [],
      );
      const filters = {
        companies: vendor.universe.companies.indexesNamedBy({
          domains: query.company_domain,
          names: query.company_name,
        }),
        titles: query.title,
        cities: cities && cities.length > 0 ? cities : undefined,
        seniorities: query.seniority?.map((level) => SENIORITIES[LEVELS.indexOf(level)]!),
        departments: query.department,
        keywords: query.q === undefined ? undefined : [query.q],
      };
      if (Object.values(filters).every((value) => value === undefined))
        return vendor.fail(reply, 400, 'at least one filter is required');
      const found = searchPeople(vendor.universe, filters, {
        offset: (page - 1) * perPage,
        limit: perPage,
        include: vendor.knows,
      });
      return {
        people: found.ids.map((id) => row(vendor.universe, id)),
        pagination: {
          page,
          per_page: perPage,
          total_entries: found.total,
          total_pages: Math.ceil(found.total / perPage),
        },
      };
    });

    routes.on<{ Querystring: { q?: string } }>('geo', geoSchema, async (request) => {
      const wanted = (request.query.q ?? '').toLowerCase();
      return {
        geos: METROS.filter((metro) =>
          [metro.label, ...metro.cities].some((name) => name.toLowerCase().includes(wanted)),
        ),
      };
    });
  },
});

function row(universe: Universe, id: number) {
  const person = universe.summary(id);
  const company = universe.companies.get(person.company.index);
  return {
    id: `pdb-${id}`,
    name: person.fullName,
    title: person.title,
    seniority: LEVELS[SENIORITIES.indexOf(person.seniority)],
    department: person.department,
    company: { name: company.name, website: `https://www.${company.domain}`, linkedin: company.linkedinUrl },
    geo: { code: metroOf(person.city).code, city: person.city.name, country: person.city.countryCode },
    linkedin: universe.listedLinkedInUrlOf(id, person.traits),
  };
}
