import { useEffect } from 'react';
import type { Outcome } from '../pages/sign-in-outcome';

/** The end of a sign-in: the CLI told to go on, a password to set, or the page it returns to. */
export function OutcomeView({ outcome }: { outcome: Outcome }) {
  useEffect(() => {
    if ('goTo' in outcome) window.location.assign(outcome.goTo);
  }, [outcome]);
  if ('goTo' in outcome) return <p role="status">Signed in.</p>;
  if (outcome.done === 'cli')
    return <p role="status">The command line is signed in. You can close this tab and return to your terminal.</p>;
  return <p role="status">This account needs a password first: we emailed you a link to set one.</p>;
}
