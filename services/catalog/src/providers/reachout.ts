import { defineProvider } from './define';
import { linkedInLookupMethods } from './jobs';

/** Reachout: an asynchronous work-email finder by LinkedIn URL (submit, poll or callback), billed per email found. */
export const reachout = defineProvider('reachout', {
  description: 'Reachout: the work email behind a LinkedIn URL, found by an asynchronous lookup job',
  methods: linkedInLookupMethods({
    noun: 'lookup',
    starts: 'a lookup of the work email',
    submitPath: '/v2/lookups',
    urlParameter: 'linkedin_url',
    millicredits: 1_000,
    hit: 'each completed lookup that found an email',
    state: { path: ['status'], done: 'completed' },
  }),
});
