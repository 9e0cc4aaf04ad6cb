import { defineProvider } from './define';
import { linkedInLookupMethods } from './jobs';

/** RingDirect: an asynchronous mobile-phone finder by LinkedIn URL (submit, poll or callback), billed per number found. */
export const ringdirect = defineProvider('ringdirect', {
  description: 'RingDirect: the mobile phone behind a LinkedIn profile, found by an asynchronous request',
  methods: linkedInLookupMethods({
    noun: 'request',
    starts: 'a request for the mobile phone',
    submitPath: '/v1/requests',
    urlParameter: 'profile_url',
    millicredits: 3_000,
    hit: 'each finished request that found a number',
    state: { path: ['state'], done: 'finished' },
  }),
});
