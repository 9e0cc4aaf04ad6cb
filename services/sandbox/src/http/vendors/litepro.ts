import type { Person } from '../../domain/people';
import { object, text } from '../schema';
import { defineVendor } from '../define-vendor';

/**
 * LitePro: a cheap profile enricher by LinkedIn URL. For a large share of people it returns the
 * employers and titles without dates: a profile without dated experience, which the waterfall
 * must treat as a miss. Billed per hit.
 */

const UNDATED_RATE = 0.4;

const enrichSchema = { body: object({ linkedin_url: text }, ['linkedin_url']) };

export const litepro = defineVendor('litepro', {
  descriptor: {
    endpoints: [{ name: 'enrich', method: 'POST', path: '/v1/enrich', purpose: 'the profile behind a LinkedIn URL' }],
    cost: { per: 'hit', credits: 1, note: 'each non-null profile, dated or not' },
    hitRate: 0.65,
    capabilities: {
      lookupBy: [['linkedin_url']],
      quirks: [
        `about ${UNDATED_RATE * 100}% of profiles come back without dated experience`,
        'a miss is profile: null',
      ],
    },
  },
  knobDefaults: { latency: { median: 250, p95: 800 } },
  errorBody: (status, message) => ({ profile: null, error: message, status }),
  routes(routes, vendor) {
    routes.on<{ Body: { linkedin_url: string } }>('enrich', enrichSchema, async (request) => {
      const id = vendor.universe.personByLinkedInUrl(request.body.linkedin_url);
      if (id === undefined || !vendor.knows(id)) return { profile: null, credits_used: 0 };
      return {
        profile: profile(vendor.universe.person(id), !vendor.sometimes('drops-dates', id, UNDATED_RATE)),
        credits_used: 1,
      };
    });
  },
});

function profile(person: Person, dated: boolean) {
  return {
    name: person.fullName,
    headline: person.headline,
    location: `${person.city.name}, ${person.city.country}`,
    current_title: person.title,
    current_company: person.company.name,
    experience: person.experience.map((job) => ({
      company: job.company,
      title: job.title,
      ...(dated && job.start !== null ? { period: { from: job.start, to: job.end } } : {}),
    })),
    skills: person.skills,
  };
}
