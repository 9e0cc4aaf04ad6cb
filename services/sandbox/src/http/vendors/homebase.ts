import { findContact } from '../../domain/contacts';
import { contactOf, previousWorkEmailOf } from '../../domain/contact-details';
import { object, text } from '../schema';
import { defineVendor } from '../define-vendor';

/**
 * HomeBase: a personal-email finder by LinkedIn URL or by full name and company. For people who
 * recently changed employer it returns the work address at the employer they left, labelled
 * personal. Billed per hit.
 */

interface LookupQuery {
  linkedin_url?: string;
  full_name?: string;
  company?: string;
}

const lookupSchema = {
  querystring: {
    ...object({ linkedin_url: text, full_name: text, company: text }),
    anyOf: [{ required: ['linkedin_url'] }, { required: ['full_name', 'company'] }],
  },
};

export const homebase = defineVendor('homebase', {
  descriptor: {
    endpoints: [{ name: 'lookup', method: 'GET', path: '/lookup', purpose: 'the personal email of a person' }],
    cost: { per: 'hit', credits: 1, note: 'each lookup with match: true' },
    hitRate: 0.45,
    capabilities: {
      lookupBy: [['linkedin_url'], ['full_name', 'company']],
      quirks: ['returns the previous employer’s work address for people who recently changed employer'],
    },
  },
  knobDefaults: { latency: { median: 300, p95: 900 } },
  errorBody: (status, message) => ({ match: false, error: message, status }),
  routes(routes, vendor) {
    routes.on<{ Querystring: LookupQuery }>('lookup', lookupSchema, async (request) => {
      const { linkedin_url, full_name, company } = request.query;
      const id = findContact(vendor.universe, { linkedinUrl: linkedin_url, fullName: full_name, company });
      if (id === undefined || !vendor.knows(id)) return { match: false, charged: false };
      const email = previousWorkEmailOf(vendor.universe, id) ?? contactOf(vendor.universe, id).personalEmail;
      return { match: true, email, email_type: 'personal', charged: true };
    });
  },
});
