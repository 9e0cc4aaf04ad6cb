import type { ApiProblem } from '../api/errors';

/** An API error as a sentence, announced to screen readers; a 402's checkout link beside it. */
export function Problem({ problem }: { problem?: ApiProblem }) {
  if (!problem) return null;
  return (
    <p role="alert" className="problem">
      {problem.message}
      {problem.checkoutUrl && (
        <>
          {' '}
          <a href={problem.checkoutUrl}>Buy credits</a>
        </>
      )}
    </p>
  );
}
