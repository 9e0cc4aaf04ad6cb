import { defineProvider } from './define';
import { text } from './json-schema';
import { jobPollMethod } from './jobs';

/** Reachout: an asynchronous work-email finder by LinkedIn URL (submit, poll or callback), billed per email found. */
export const reachout = defineProvider('reachout', {
  description: 'Reachout: the work email behind a LinkedIn URL, found by an asynchronous lookup job',
  methods: [
    {
      name: 'submit',
      description: 'Starts a lookup of the work email behind a LinkedIn URL; answers its lookup_id',
      http: 'POST',
      path: '/v2/lookups',
      parameters: [
        { name: 'linkedin_url', type: 'string', required: true, description: 'LinkedIn profile URL', schema: text },
        { name: 'callback_url', type: 'string', description: 'called once when the lookup is done', schema: text },
      ],
      cost: { unit: 'hit', millicredits: 1_000, note: 'each completed lookup that found an email; a miss is free' },
      job: {
        poll: 'poll',
        id_field: 'lookup_id',
        callback_parameter: 'callback_url',
        state_path: ['status'],
        done_state: 'completed',
      },
      capabilities: { lookup_by: [['linkedin_url']] },
    },
    jobPollMethod({ path: '/v2/lookups/:lookup_id', idField: 'lookup_id', noun: 'lookup' }),
  ],
});
