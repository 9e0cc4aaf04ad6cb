import { contactOf } from '../../domain/contact-details';
import { object, text } from '../schema';
import { defineVendor } from '../define-vendor';

/**
 * Persona: a personal-email finder by LinkedIn URL. For some people (everyone at Hooli) the address
 * it calls personal is their work address. A miss is a 404. Billed per hit.
 */

const lookupSchema = { body: object({ linkedin_url: text }, ['linkedin_url']) };

export const persona = defineVendor('persona', {
  descriptor: {
    endpoints: [
      { name: 'lookup', method: 'POST', path: '/v1/person/emails', purpose: 'personal emails of a LinkedIn profile' },
    ],
    cost: { per: 'hit', credits: 1, note: 'each lookup that returns an address; a 404 miss is free' },
    hitRate: 0.5,
    capabilities: {
      lookupBy: [['linkedin_url']],
      quirks: ['a miss is a 404', 'some "personal" addresses are on the person’s own corporate domain'],
    },
  },
  knobDefaults: { latency: { median: 250, p95: 800 } },
  errorBody: (_status, message) => ({ message }),
  routes(routes, vendor) {
    routes.on<{ Body: { linkedin_url: string } }>('lookup', lookupSchema, async (request, reply) => {
      const id = vendor.universe.personByLinkedInUrl(request.body.linkedin_url);
      if (id === undefined || !vendor.knows(id)) return vendor.fail(reply, 404, 'person not found');
      const person = vendor.universe.summary(id);
      const contact = contactOf(vendor.universe, id);
      const address = person.traits.personalEmailOnWorkDomain ? contact.workEmail : contact.personalEmail;
      return {
        person: {
          linkedin_url: person.linkedinUrl,
          full_name: person.fullName,
          emails: [{ address, kind: 'personal' }],
        },
        credits: 1,
      };
    });
  },
});
