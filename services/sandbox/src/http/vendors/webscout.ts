import { metroCitiesIn } from '../../domain/locations';
import type { Person } from '../../domain/people';
import { searchPeople } from '../../domain/search';
import { normalizeName } from '../../domain/text';
import type { Seniority } from '../../domain/vocabulary';
import { object, text } from '../schema';
import { defineVendor } from '../define-vendor';

/**
 * WebScout: a public-web people search anchored on a company, returning structured work history.
 * Billed per request, found or not. It matches the company loosely ("acme" finds GoAcme), reads a
 * city as its whole metro (people just outside the request come back), and writes employers as
 * their staff do on their profiles ("ACME-Inc").
 */

interface SearchBody {
  company: string;
  title?: string;
  location?: string;
  seniority?: string;
  keywords?: string;
  min_experience_years?: number;
  max_results?: number;
}

const MAX_RESULTS = 10;

const searchSchema = {
  body: object(
    {
      company: text,
      title: text,
      location: text,
      seniority: text,
      keywords: text,
      min_experience_years: { type: 'integer', minimum: 0, maximum: 60 },
      max_results: { type: 'integer', minimum: 1, maximum: MAX_RESULTS },
    },
    ['company'],
  ),
};

const SENIORITY_WORDS: Record<string, Seniority> = {
  entry: 'entry',
  junior: 'entry',
  senior: 'senior',
  manager: 'manager',
  director: 'director',
  vp: 'vp',
  'vice president': 'vp',
  'c level': 'cxo',
  'c suite': 'cxo',
  executive: 'cxo',
};

export const webscout = defineVendor('webscout', {
  descriptor: {
    endpoints: [
      {
        name: 'search',
        method: 'POST',
        path: '/v2/search',
        purpose: 'people at a company from the public web, with work history',
      },
    ],
    cost: { per: 'call', credits: 1, note: 'each request, found or not' },
    hitRate: 0.55,
    capabilities: {
      filters: [
        'company_names',
        'company_domains',
        'company_linkedin_urls',
        'titles',
        'locations',
        'seniority',
        'keywords',
        'min_experience_years',
      ],
      locationTokens: { style: 'free_text' },
      companyMatch: 'loose',
      maxResults: MAX_RESULTS,
      quirks: [
        'company is required and matched loosely: a name containing the query matches',
        'a city in location brings its whole metro area',
        'employers are written as on the profile, so spelling variants come back',
        'a seniority or location it cannot read is ignored',
      ],
    },
  },
  knobDefaults: { latency: { median: 900, p95: 2500 } },
  errorBody: (status, message) => ({ ok: false, status, reason: message }),
  routes(routes, vendor) {
    routes.on<{ Body: SearchBody }>('search', searchSchema, async (request) => {
      const body = request.body;
      const cities = body.location === undefined ? [] : metroCitiesIn(body.location);
      const seniority = body.seniority === undefined ? undefined : SENIORITY_WORDS[normalizeName(body.seniority)];
      const found = searchPeople(
        vendor.universe,
        {
          companies: vendor.universe.companies.indexesMatchingLoosely(body.company),
          titles: body.title === undefined ? undefined : [body.title],
          cities: cities.length > 0 ? cities : undefined,
          seniorities: seniority && [seniority],
          keywords: body.keywords === undefined ? undefined : [body.keywords],
          minYearsExperience: body.min_experience_years,
        },
        { offset: 0, limit: body.max_results ?? MAX_RESULTS, include: vendor.knows },
      );
      return {
        request_id: `ws_${Date.now().toString(36)}`,
        found: found.ids.length,
        people: found.ids.map((id) => webProfile(vendor.universe.person(id))),
        credits_used: 1,
      };
    });
  },
});

function webProfile(person: Person) {
  const employer = person.company.profileSpelling ?? person.company.name;
  return {
    name: person.fullName,
    profile_url: person.linkedinUrl,
    headline: person.headline,
    location: `${person.city.name}, ${person.city.region}, ${person.city.country}`,
    current: { title: person.title, employer },
    work_history: person.experience.map((job) => ({
      employer: job.isCurrent ? employer : job.company,
      title: job.title,
      from: job.start,
      to: job.end,
    })),
  };
}
