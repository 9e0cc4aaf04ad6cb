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
