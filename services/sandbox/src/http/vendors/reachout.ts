import { previousWorkEmailOf, workEmailOf } from '../../domain/contact-details';
import { registerJobEndpoints } from '../job-endpoints';
import { object, text } from '../schema';
import { defineVendor } from '../define-vendor';

/**
 * Reachout: an asynchronous work-email finder by LinkedIn URL. A lookup is a job: submit, then poll
 * or wait for the callback. Its data is stale: for someone who changed employer it returns the
 * address at the employer they left. Billed per completed lookup that found an email.
 */

interface SubmitBody {
  linkedin_url: string;
  callback_url?: string;
}

interface LookupResult {
  email: string | null;
}

const submitSchema = { body: object({ linkedin_url: text, callback_url: text }, ['linkedin_url']) };

export const reachout = defineVendor('reachout', {
  descriptor: {
    endpoints: [
      { name: 'submit', method: 'POST', path: '/v2/lookups', purpose: 'start a lookup; 202 with lookup_id' },
      {
        name: 'poll',
        method: 'GET',
        path: '/v2/lookups/:lookup_id',
        purpose: 'lookup status and, once completed, the email (free)',
      },
    ],
    cost: { per: 'hit', credits: 1, note: 'each completed lookup that found an email; submits and polls are free' },
    hitRate: 0.6,
    capabilities: {
      lookupBy: [['linkedin_url']],
      async: { submit: 'submit', poll: 'poll', jobIdField: 'lookup_id', callbackField: 'callback_url' },
      quirks: [
        'returns the previous employer’s address for people who recently changed employer',
        'callback_url must be on loopback',
      ],
    },
  },
  knobDefaults: {
    latency: { median: 120, p95: 400 },
    jobDuration: { median: 1500, p95: 4000 },
  },
  errorBody: (status, message) => ({ error: message, code: status }),
  routes(routes, vendor) {
    registerJobEndpoints<SubmitBody, LookupResult>(routes, vendor, {
      idPrefix: 'lk_',
      idField: 'lookup_id',
      callbackField: 'callback_url',
      noun: 'lookup',
      submitSchema,
      result: ({ linkedin_url }) => {
        const id = vendor.universe.personByLinkedInUrl(linkedin_url);
        if (id === undefined || !vendor.knows(id)) return { email: null };
        return { email: previousWorkEmailOf(vendor.universe, id) ?? workEmailOf(vendor.universe, id) };
      },
      callbackBody: (lookupId) => ({ lookup_id: lookupId, status: 'completed' }),
      accepted: (job) => ({ status: 202, body: { lookup_id: job.id, status: 'queued' } }),
      pending: (lookupId) => ({ lookup_id: lookupId, status: 'processing' }),
      done: ({ id, result: { email } }) => ({
        lookup_id: id,
        status: 'completed',
        email,
        company_domain: email && email.slice(email.indexOf('@') + 1),
        credits_used: email ? 1 : 0,
      }),
    });
  },
});
