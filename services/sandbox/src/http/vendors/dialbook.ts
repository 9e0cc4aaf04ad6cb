import { contactOf } from '../../domain/contact-details';
import { object, text } from '../schema';
import { defineVendor } from '../define-vendor';

/** DialBook: a synchronous mobile-phone finder by LinkedIn URL. Billed per hit. */

const findSchema = { querystring: object({ linkedin_url: text }, ['linkedin_url']) };

export const dialbook = defineVendor('dialbook', {
  descriptor: {
    endpoints: [{ name: 'find', method: 'GET', path: '/v1/phone', purpose: 'mobile phone of a LinkedIn profile' }],
    cost: { per: 'hit', credits: 3, note: 'each lookup that returns a number' },
    hitRate: 0.4,
    capabilities: { lookupBy: [['linkedin_url']] },
  },
  knobDefaults: { latency: { median: 350, p95: 1200 } },
  errorBody: (status, message) => ({ phones: [], error: { status, message } }),
  routes(routes, vendor) {
    routes.on<{ Querystring: { linkedin_url: string } }>('find', findSchema, async (request) => {
      const id = vendor.universe.personByLinkedInUrl(request.query.linkedin_url);
      if (id === undefined || !vendor.knows(id)) return { phones: [], credits_used: 0 };
      const number = contactOf(vendor.universe, id).mobilePhone;
      return {
        phones: [{ number, type: 'mobile', country_code: vendor.universe.cityOf(id).countryCode }],
        credits_used: 3,
      };
    });
  },
});
