import { citiesForPlaceName, PLACE_NAMES, placeName } from '../../domain/locations';
import { AS_OF_MONTH, monthString } from '../../domain/people';
import { searchPeople, type PeopleQuery } from '../../domain/search';
import type { Universe } from '../../domain/universe';
import { SIZE_BANDS } from '../../domain/company-vocabulary';
import { SENIORITIES, type Seniority } from '../../domain/vocabulary';
import { object, text, textList } from '../schema';
import { defineVendor } from '../define-vendor';

/** PeopleGraph: a people database billed per returned profile; the richest filters of the two. */

const LEVELS = ['entry', 'senior', 'manager', 'director', 'vp', 'c_suite'] as const;
type Level = (typeof LEVELS)[number];
const levelOf = (seniority: Seniority): Level => LEVELS[SENIORITIES.indexOf(seniority)]!;

interface SearchBody {
  query: {
    job_title?: string[];
    location?: string[];
    skills?: string[];
    keywords?: string;
    job_title_levels?: Level[];
    job_company_website?: string[];
    job_company_name?: string[];
    job_company_linkedin_url?: string[];
    job_department?: string[];
    min_experience_years?: number;
    months_in_role?: { gte?: number; lte?: number };
    job_company_size?: string[];
    job_company_industry?: string[];
  };
  size?: number;
  scroll_token?: string;
}

const searchSchema = {
  body: object(
    {
      query: {
        ...object({
          job_title: textList,
          location: textList,
          skills: textList,
          keywords: text,
          job_title_levels: { type: 'array', items: { enum: LEVELS }, minItems: 1 },
          job_company_website: textList,
          job_company_name: textList,
          job_company_linkedin_url: textList,
          job_department: textList,
          min_experience_years: { type: 'integer', minimum: 0, maximum: 60 },
          months_in_role: object({ gte: { type: 'integer', minimum: 0 }, lte: { type: 'integer', minimum: 0 } }),
          job_company_size: { type: 'array', items: { enum: SIZE_BANDS.map((band) => band.label) }, minItems: 1 },
          job_company_industry: textList,
        }),
        minProperties: 1,
      },
      size: { type: 'integer', minimum: 1, maximum: 100 },
      scroll_token: { type: 'string', pattern: '^[0-9]+$' },
    },
    ['query'],
  ),
};

export const pplgraph = defineVendor('pplgraph', {
  descriptor: {
    endpoints: [
      {
        name: 'search',
        method: 'POST',
        path: '/v1/people/search',
        purpose: 'people search, up to 100 profiles a request, scroll_token for the next',
      },
    ],
    cost: { per: 'record', credits: 1, note: 'each returned profile; an empty answer is free' },
    hitRate: 0.72,
    capabilities: {
      filters: [
        'titles',
        'locations',
        'skills',
        'keywords',
        'seniority',
        'company_domains',
        'company_names',
        'company_linkedin_urls',
        'min_experience_years',
        'tenure',
        'firmographics',
      ],
      silentlyIgnores: ['departments'],
      locationTokens: { style: 'place_name', tokens: PLACE_NAMES },
      companyMatch: 'exact',
      maxResults: 100,
      quirks: [
        'job_department is accepted and not applied',
        'an unknown location token is a 400 invalid_request_error',
        'linkedin_url is the URL it has on file, which for some people is someone else’s',
      ],
    },
  },
  knobDefaults: { latency: { median: 180, p95: 700 } },
  errorBody: (status, message) => ({
    error: {
      type:
        status === 401
          ? 'authentication_error'
          : status === 429
            ? 'rate_limit_error'
            : status < 500
              ? 'invalid_request_error'
              : 'api_error',
      message,
    },
  }),
  routes(routes, vendor) {
    routes.on<{ Body: SearchBody }>('search', searchSchema, async (request, reply) => {
      const { query, size = 10, scroll_token } = request.body;
      const unknown = (query.location ?? []).filter((token) => !citiesForPlaceName(token));
      if (unknown.length > 0)
        return vendor.fail(reply, 400, `unknown location: ${unknown.map((t) => JSON.stringify(t)).join(', ')}`);
      const offset = scroll_token ? Number(scroll_token) : 0;
      const found = searchPeople(vendor.universe, toPeopleQuery(vendor.universe, query), {
        offset,
        limit: size,
        include: vendor.knows,
      });
      const next = offset + found.ids.length;
      return {
        status: 200,
        data: found.ids.map((id) => profile(vendor.universe, id)),
        total: found.total,
        scroll_token: found.exhausted || found.ids.length < size ? null : String(next),
        credits_charged: found.ids.length,
      };
    });
  },
});

function toPeopleQuery(universe: Universe, query: SearchBody['query']): PeopleQuery {
  return {
    companies: universe.companies.indexesNamedBy({
      domains: query.job_company_website,
      names: query.job_company_name,
      linkedinUrls: query.job_company_linkedin_url,
    }),
    titles: query.job_title,
    cities: query.location?.flatMap((token) => citiesForPlaceName(token)!),
    skills: query.skills,
    keywords: query.keywords === undefined ? undefined : [query.keywords],
    seniorities: query.job_title_levels?.map((level) => SENIORITIES[LEVELS.indexOf(level)]!),
    minYearsExperience: query.min_experience_years,
    tenureMonths: query.months_in_role && { min: query.months_in_role.gte, max: query.months_in_role.lte },
    sizeBands: query.job_company_size,
    industries: query.job_company_industry,
  };
}

function profile(universe: Universe, id: number) {
  const person = universe.summary(id);
  const company = universe.companies.get(person.company.index);
  const dated = !person.traits.undatedExperience && !person.traits.titleOnly;
  return {
    pg_id: `pg_${id.toString(36)}`,
    full_name: person.fullName,
    first_name: person.firstName,
    last_name: person.lastName,
    linkedin_url: universe.listedLinkedInUrlOf(id, person.traits),
    headline: person.headline,
    job_title: person.title,
    job_title_levels: [levelOf(person.seniority)],
    job_department: person.department,
    job_company_name: company.name,
    job_company_website: company.domain,
    job_company_linkedin_url: company.linkedinUrl,
    job_company_size: company.sizeBand,
    job_company_industry: company.industry,
    job_start_date: dated ? monthString(AS_OF_MONTH - person.tenureMonths) : null,
    location_name: placeName(person.city),
    location_country: person.city.country.toLowerCase(),
    skills: person.skills.map((skill) => skill.toLowerCase()),
    experience_years: dated ? person.yearsExperience : null,
  };
}
