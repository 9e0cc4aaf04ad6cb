import { deliverability } from '../../domain/deliverability';
import { hashString } from '../../domain/hash';
import { object, text } from '../schema';
import { defineVendor } from '../define-vendor';

/**
 * VeriMail: an email deliverability validator, billed per address checked whatever the verdict.
 * Its hit rate is the share of mail servers it manages to reach; the rest answer `unknown`.
 */

const verifySchema = { body: object({ email: text }, ['email']) };

export const verimail = defineVendor('verimail', {
  descriptor: {
    endpoints: [{ name: 'verify', method: 'POST', path: '/v3/verify', purpose: 'deliverability of one address' }],
    cost: { per: 'call', credits: 1, note: 'each address checked, whatever the verdict' },
    hitRate: 0.97,
    capabilities: {
      quirks: ['result is deliverable, undeliverable, risky (catch-all domains) or unknown (server not reached)'],
    },
  },
  knobDefaults: { latency: { median: 120, p95: 400 } },
  errorBody: (status, message) => ({ success: false, status, message }),
  routes(routes, vendor) {
    routes.on<{ Body: { email: string } }>('verify', verifySchema, async (request) => {
      const email = request.body.email.trim().toLowerCase();
      if (!vendor.knows(hashString(email))) {
        return { email, result: 'unknown', reason: 'no_connect', accept_all: false, free: false, credits: 1 };
      }
      const verdict = deliverability(vendor.universe, email);
      return {
        email,
        result: verdict.result,
        reason: verdict.reason,
        accept_all: verdict.acceptAll,
        free: verdict.free,
        credits: 1,
      };
    });
  },
});
