import { contactOf } from '../../domain/contact-details';
import { registerJobEndpoints } from '../job-endpoints';
import { object, text } from '../schema';
import { defineVendor } from '../define-vendor';

/** RingDirect: an asynchronous mobile-phone finder by LinkedIn URL: submit, then poll or wait for the callback. Billed per hit. */

interface SubmitBody {
  profile_url: string;
  callback_url?: string;
}

interface RequestResult {
  mobile: string | null;
}

const submitSchema = { body: object({ profile_url: text, callback_url: text }, ['profile_url']) };

export const ringdirect = defineVendor('ringdirect', {
  descriptor: {
    endpoints: [
      { name: 'submit', method: 'POST', path: '/v1/requests', purpose: 'start a phone request; 202 with request_id' },
      {
        name: 'poll',
        method: 'GET',
        path: '/v1/requests/:request_id',
        purpose: 'request state and, once finished, the mobile number (free)',
      },
    ],
    cost: { per: 'hit', credits: 3, note: 'each finished request that found a number; submits and polls are free' },
    hitRate: 0.5,
    capabilities: {
      lookupBy: [['profile_url']],
      async: { submit: 'submit', poll: 'poll', jobIdField: 'request_id', callbackField: 'callback_url' },
      quirks: ['callback_url must be on loopback'],
    },
  },
  knobDefaults: {
    latency: { median: 150, p95: 500 },
    jobDuration: { median: 2500, p95: 7000 },
  },
  errorBody: (status, message) => ({ state: 'error', code: status, message }),
  routes(routes, vendor) {
    registerJobEndpoints<SubmitBody, RequestResult>(routes, vendor, {
      idPrefix: 'rq_',
      idField: 'request_id',
      callbackField: 'callback_url',
      noun: 'request',
      submitSchema,
      result: ({ profile_url }) => {
        const id = vendor.universe.personByLinkedInUrl(profile_url);
        return { mobile: id !== undefined && vendor.knows(id) ? contactOf(vendor.universe, id).mobilePhone : null };
      },
      callbackBody: (requestId) => ({ request_id: requestId, state: 'finished' }),
      accepted: (job) => ({ status: 202, body: { request_id: job.id, state: 'pending' } }),
      pending: (requestId) => ({ request_id: requestId, state: 'pending' }),
      done: (job) => ({ request_id: job.id, state: 'finished', mobile: job.result.mobile }),
    });
  },
});
