import { findContact } from '../../domain/contacts';
import { workEmailOf } from '../../domain/contact-details';
import { object, text } from '../schema';
import { defineVendor } from '../define-vendor';

/** MailFinder: a synchronous work-email finder by name at a company (domain or name). Billed per hit. */

interface FindQuery {
  first_name: string;
  last_name: string;
  domain?: string;
  company?: string;
}

const findSchema = {
  querystring: {
    ...object({ first_name: text, last_name: text, domain: text, company: text }, ['first_name', 'last_name']),
    anyOf: [{ required: ['domain'] }, { required: ['company'] }],
  },
};

export const mailfinder = defineVendor('mailfinder', {
  descriptor: {
    endpoints: [{ name: 'find', method: 'GET', path: '/v1/email', purpose: 'work email of a person at a company' }],
    cost: { per: 'hit', credits: 1, note: 'each lookup that returns an email; a miss is free' },
    hitRate: 0.55,
    capabilities: {
      lookupBy: [
        ['first_name', 'last_name', 'domain'],
        ['first_name', 'last_name', 'company'],
      ],
      quirks: ['a company name is resolved to its domain, brand domains included ("Acme Labs" gives @acmelabs.com)'],
    },
  },
  knobDefaults: { latency: { median: 200, p95: 700 } },
  errorBody: (status, message) => ({
    errors: [
      {
        id: status === 401 ? 'authentication_failed' : status === 429 ? 'too_many_requests' : 'error',
        code: status,
        details: message,
      },
    ],
  }),
  routes(routes, vendor) {
    routes.on<{ Querystring: FindQuery }>('find', findSchema, async (request) => {
      const { first_name, last_name, domain, company } = request.query;
      const id = findContact(vendor.universe, {
        firstName: first_name,
        lastName: last_name,
        company: domain ?? company,
      });
      if (id === undefined || !vendor.knows(id)) return { data: null, meta: { credits_used: 0 } };
      const email = workEmailOf(vendor.universe, id);
      const catchAll = vendor.universe.companies.get(vendor.universe.companyOf(id)).acceptsAllMail;
      return {
        data: {
          email,
          first_name,
          last_name,
          domain: email.slice(email.indexOf('@') + 1),
          score: catchAll ? 62 : 94,
          verification: { status: catchAll ? 'accept_all' : 'valid' },
        },
        meta: { credits_used: 1 },
      };
    });
  },
});
