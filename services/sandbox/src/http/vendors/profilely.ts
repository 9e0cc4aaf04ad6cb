import type { Person } from '../../domain/people';
import { object, text } from '../schema';
import { defineVendor } from '../define-vendor';

/**
 * Profilely: a profile enricher by LinkedIn URL returning dated positions. For a few URLs it
 * returns a different person's profile (a mix-up on its side). A miss is a 404. Billed per hit.
 */

const MIX_UP_RATE = 0.03;

const profileSchema = { querystring: object({ url: text }, ['url']) };

export const profilely = defineVendor('profilely', {
  descriptor: {
    endpoints: [{ name: 'profile', method: 'GET', path: '/v1/profile', purpose: 'the profile behind a LinkedIn URL' }],
    cost: { per: 'hit', credits: 1, note: 'each profile returned; a 404 miss is free' },
    hitRate: 0.7,
    capabilities: {
      lookupBy: [['url']],
      quirks: [
        `about ${MIX_UP_RATE * 100}% of URLs return a different person`,
        'profiles without dated experience come back with null dates',
      ],
    },
  },
  knobDefaults: { latency: { median: 400, p95: 1200 } },
  errorBody: (_status, message) => ({ detail: message }),
  routes(routes, vendor) {
    routes.on<{ Querystring: { url: string } }>('profile', profileSchema, async (request, reply) => {
      const universe = vendor.universe;
      const id = universe.personByLinkedInUrl(request.query.url);
      if (id === undefined || !vendor.knows(id)) return vendor.fail(reply, 404, 'Profile not found');
      const shown = vendor.sometimes('mixes-up', id, MIX_UP_RATE) ? (id + 104_729) % universe.people : id;
      return profile(universe.person(shown));
    });
  },
});

function monthOf(date: string | null): { year: number; month: number } | null {
  return date === null ? null : { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)) };
}

function profile(person: Person) {
  return {
    public_identifier: person.linkedinUrl.slice(person.linkedinUrl.lastIndexOf('/') + 1),
    profile_url: person.linkedinUrl,
    full_name: person.fullName,
    first_name: person.firstName,
    last_name: person.lastName,
    headline: person.headline,
    occupation: `${person.title} at ${person.company.name}`,
    city: person.city.name,
    state: person.city.region,
    country: person.city.countryCode,
    positions: person.experience.map((job) => ({
      company: job.company,
      title: job.title,
      starts_at: monthOf(job.start),
      ends_at: monthOf(job.end),
    })),
    skills: person.skills,
    certifications: person.certifications.map((name) => ({ name })),
    education: person.education.map((e) => ({
      school: e.school,
      degree_name: e.degree,
      starts_at: { year: e.startYear },
      ends_at: { year: e.endYear },
    })),
  };
}
