import { findContact } from '../../domain/contacts';
import { hashString, Rng } from '../../domain/hash';
import { workEmailOf } from '../../domain/contact-details';
import { registerJobEndpoints } from '../job-endpoints';
import { object, text } from '../schema';
import { defineVendor } from '../define-vendor';

/**
 * BulkMail: a work-email finder that only takes batches of up to 100 contacts, each carrying a
 * caller-chosen `ref`. Results come back in another order than submitted: match them by `ref`.
 * Billed per contact found.
 */

const MAX_BATCH = 100;

interface Contact {
  ref: string;
  first_name?: string;
  last_name?: string;
  domain?: string;
  company?: string;
  linkedin_url?: string;
}

interface SubmitBody {
  contacts: Contact[];
  webhook_url?: string;
}

interface ContactResult {
  ref: string;
  email: string | null;
  status: 'found' | 'not_found';
}

const submitSchema = {
  body: object(
    {
      contacts: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_BATCH,
        items: object(
          { ref: text, first_name: text, last_name: text, domain: text, company: text, linkedin_url: text },
          ['ref'],
        ),
      },
      webhook_url: text,
    },
    ['contacts'],
  ),
};

export const bulkmail = defineVendor('bulkmail', {
  descriptor: {
    endpoints: [
      { name: 'submit', method: 'POST', path: '/v1/batches', purpose: 'submit up to 100 contacts; 201 with batch_id' },
      {
        name: 'poll',
        method: 'GET',
        path: '/v1/batches/:batch_id',
        purpose: 'batch state and, once done, results by ref (free)',
      },
    ],
    cost: { per: 'hit', credits: 1, note: 'each contact whose email is found; misses, submits and polls are free' },
    hitRate: 0.5,
    capabilities: {
      lookupBy: [['linkedin_url'], ['first_name', 'last_name', 'domain'], ['first_name', 'last_name', 'company']],
      async: { submit: 'submit', poll: 'poll', jobIdField: 'batch_id', callbackField: 'webhook_url' },
      batch: { maxSize: MAX_BATCH, correlationField: 'ref' },
      quirks: [
        'results are never in submission order',
        'refs must be unique within a batch',
        'webhook_url must be on loopback',
      ],
    },
  },
  knobDefaults: {
    latency: { median: 150, p95: 500 },
    jobDuration: { median: 3000, p95: 8000 },
  },
  errorBody: (status, message) => ({ error: { status, message } }),
  routes(routes, vendor) {
    registerJobEndpoints<SubmitBody, ContactResult[]>(routes, vendor, {
      idPrefix: 'bat_',
      idField: 'batch_id',
      callbackField: 'webhook_url',
      noun: 'batch',
      submitSchema,
      refuse: ({ contacts }) =>
        new Set(contacts.map((c) => c.ref)).size === contacts.length ? undefined : 'refs must be unique within a batch',
      result: ({ contacts }) =>
        shuffled(
          contacts.map((contact): ContactResult => {
            const id = findContact(vendor.universe, {
              linkedinUrl: contact.linkedin_url,
              firstName: contact.first_name,
              lastName: contact.last_name,
              company: contact.domain ?? contact.company,
            });
            const email = id !== undefined && vendor.knows(id) ? workEmailOf(vendor.universe, id) : null;
            return { ref: contact.ref, email, status: email ? 'found' : 'not_found' };
          }),
        ),
      callbackBody: (batchId) => ({ batch_id: batchId, state: 'done' }),
      accepted: (job, { contacts }) => ({
        status: 201,
        body: { batch_id: job.id, state: 'pending', size: contacts.length },
      }),
      pending: (batchId) => ({ batch_id: batchId, state: 'pending', results: [] }),
      done: ({ id, result }) => ({
        batch_id: id,
        state: 'done',
        size: result.length,
        found: result.filter((r) => r.email).length,
        results: result,
      }),
    });
  },
});

/** A deterministic shuffle that never leaves two or more results in submission order. */
function shuffled<T extends { ref: string }>(items: T[]): T[] {
  const rng = new Rng(hashString(items.map((item) => item.ref).join('\n')));
  const order = items.slice();
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const unchanged = order.every((item, i) => item === items[i]);
  return unchanged && order.length > 1 ? [...order.slice(1), order[0]!] : order;
}
