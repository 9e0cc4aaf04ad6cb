import { errors, httpError, type ErrorBody, type RdeError } from '../errors';

/** A failure kept as the call answered it: the public status and error body. */
interface StoredFailure {
  readonly error: { readonly status: number; readonly body: ErrorBody };
}

/**
 * The answer a paid run gave, kept with its outcome (`answer_json`), so a retry with the same run id
 * (after a gateway or a caller's replica died) answers it again instead of paying twice.
 */
export function answerJsonOf(answer: object): string {
  return JSON.stringify(answer);
}

/** A public failure kept the same way: a retry of the call gets the same error. */
export function failureJsonOf(failure: RdeError): string {
  const stored: StoredFailure = { error: { status: failure.httpStatus, body: failure.body } };
  return JSON.stringify(stored);
}

/** What a finished run answered: its answer, or its failure thrown again. */
export function storedAnswerOf<T extends object>(run: { readonly _id: string; readonly answer_json?: unknown }): T {
  if (typeof run.answer_json !== 'string') {
    throw errors.conflict({ detail: `run ${run._id} already finished; send the call again as a new one` });
  }
  const answer = JSON.parse(run.answer_json) as T | StoredFailure;
  if ('error' in answer) throw httpError(answer.error.status, answer.error.body);
  return answer;
}
