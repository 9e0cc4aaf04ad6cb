import { defineProvider } from './define';
import { closedObject, text } from './json-schema';
import { jobPollMethod } from './jobs';

const MAX_BATCH = 100;

/**
 * BulkMail: a work-email finder that takes batches of up to 100 contacts, each with a caller-chosen
 * `ref`; results come back in another order and are matched by `ref`. Billed per contact found.
 */
export const bulkmail = defineProvider('bulkmail', {
  description: 'BulkMail: work emails of up to 100 contacts per batch job, by LinkedIn URL or name at a company',
  methods: [
    {
      name: 'submit',
      description: 'Submits a batch of contacts; answers its batch_id',
      http: 'POST',
      path: '/v1/batches',
      parameters: [
        {
          name: 'contacts',
          type: 'array',
          required: true,
          description: `1 to ${MAX_BATCH} contacts, each {ref, linkedin_url} or {ref, first_name, last_name, domain | company}`,
          schema: {
            minItems: 1,
            maxItems: MAX_BATCH,
            items: closedObject(
              { ref: text, first_name: text, last_name: text, domain: text, company: text, linkedin_url: text },
              { required: ['ref'] },
            ),
          },
        },
        { name: 'webhook_url', type: 'string', description: 'called once when the batch is done', schema: text },
      ],
      cost: { unit: 'hit', millicredits: 1_000, note: 'each contact whose email is found; misses are free' },
      job: {
        poll: 'poll',
        id_field: 'batch_id',
        callback_parameter: 'webhook_url',
        state_path: ['state'],
        done_state: 'done',
        batch: {
          max_size: MAX_BATCH,
          items_parameter: 'contacts',
          correlation_field: 'ref',
          results_path: ['results'],
        },
      },
      capabilities: {
        lookup_by: [['linkedin_url'], ['first_name', 'last_name', 'domain'], ['first_name', 'last_name', 'company']],
      },
    },
    jobPollMethod({ path: '/v1/batches/:batch_id', idField: 'batch_id', noun: 'batch' }),
  ],
});
