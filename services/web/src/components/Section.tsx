import { useId, type ReactNode } from 'react';
import type { ApiProblem } from '../api/errors';
import { Problem } from './Problem';

/** A titled part of a page (a landmark named by its heading) with the problem its last action met. */
export function Section({ title, problem, children }: { title: string; problem?: ApiProblem; children: ReactNode }) {
  const heading = useId();
  return (
    <section aria-labelledby={heading}>
      <h2 id={heading}>{title}</h2>
      {children}
      <Problem problem={problem} />
    </section>
  );
}
