import { defineProvider } from './define';
import { text } from './json-schema';
import { jobPollMethod } from './jobs';

/** RingDirect: an asynchronous mobile-phone finder by LinkedIn URL (submit, poll or callback), billed per number found. */
export const ringdirect = defineProvider('ringdirect', {
  description: 'RingDirect: the mobile phone behind a LinkedIn profile, found by an asynchronous request',
  methods: [
    {
      name: 'submit',
      description: 'Starts a request for the mobile phone behind a LinkedIn URL; answers its request_id',
      http: 'POST',
      path: '/v1/requests',
      parameters: [
        { name: 'profile_url', type: 'string', required: true, description: 'LinkedIn profile URL', schema: text },
        { name: 'callback_url', type: 'string', description: 'called once when the request is done', schema: text },
      ],
      cost: { unit: 'hit', millicredits: 3_000, note: 'each finished request that found a number; a miss is free' },
      job: {
        poll: 'poll',
        id_field: 'request_id',
        callback_parameter: 'callback_url',
        state_path: ['state'],
        done_state: 'finished',
      },
      capabilities: { lookup_by: [['profile_url']] },
    },
    jobPollMethod({ path: '/v1/requests/:request_id', idField: 'request_id', noun: 'request' }),
  ],
});
