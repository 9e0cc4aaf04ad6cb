import type { MethodDeclaration } from './declaration';
import { text } from './json-schema';

/** The free poll method of an asynchronous vendor's jobs: GET the job by its id. */
export function jobPollMethod(job: { path: string; idField: string; noun: string }): MethodDeclaration {
  return {
    name: 'poll',
    description: `The ${job.noun}'s state and, once done, its result`,
    http: 'GET',
    path: job.path,
    parameters: [
      { name: job.idField, type: 'string', required: true, description: `the ${job.noun} id`, schema: text },
    ],
    cost: { unit: 'call', millicredits: 0, note: 'polls are free' },
    job: 'poll',
  };
}

/** What differs between two asynchronous one-person finders keyed by a LinkedIn URL. */
export interface LinkedInLookupJob {
  /** What one job is called (`lookup`, `request`); its id field is `<noun>_id`. */
  noun: string;
  /** The submit method's description up to "behind a LinkedIn URL": `a lookup of the work email`. */
  starts: string;
  submitPath: string;
  urlParameter: string;
  millicredits: number;
  /** What is billed: `each completed lookup that found an email`. */
  hit: string;
  state: { path: string[]; done: string };
}

/** Submit (billed per hit, answers by poll or callback) and the free poll of a LinkedIn-URL finder. */
export function linkedInLookupMethods(lookup: LinkedInLookupJob): MethodDeclaration[] {
  const idField = `${lookup.noun}_id`;
  return [
    {
      name: 'submit',
      description: `Starts ${lookup.starts} behind a LinkedIn URL; answers its ${idField}`,
      http: 'POST',
      path: lookup.submitPath,
      parameters: [
        {
          name: lookup.urlParameter,
          type: 'string',
          required: true,
          description: 'LinkedIn profile URL',
          schema: text,
        },
        {
          name: 'callback_url',
          type: 'string',
          description: `called once when the ${lookup.noun} is done`,
          schema: text,
        },
      ],
      cost: { unit: 'hit', millicredits: lookup.millicredits, note: `${lookup.hit}; a miss is free` },
      job: {
        poll: 'poll',
        id_field: idField,
        callback_parameter: 'callback_url',
        state_path: lookup.state.path,
        done_state: lookup.state.done,
      },
      capabilities: { lookup_by: [[lookup.urlParameter]] },
    },
    jobPollMethod({ path: `${lookup.submitPath}/:${idField}`, idField, noun: lookup.noun }),
  ];
}
