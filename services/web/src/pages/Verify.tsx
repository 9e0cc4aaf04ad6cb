import { useState } from 'react';
import { useSearch } from 'wouter';
import { api } from '../api/client';
import { answered, useAction } from '../api/call';
import { Problem } from '../components/Problem';
import { OutcomeView } from '../components/OutcomeView';
import { outcomeOf, type Outcome } from './sign-in-outcome';

/**
 * The emailed link's page. Signing in takes a click: mail scanners that open links do not press
 * buttons, so they cannot spend the single-use token.
 */
export function Verify() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome>();
  const { problem, busy, run } = useAction();

  const verify = () =>
    void run(async () => {
      const answer = await answered(api.POST('/api/v2/auth/magic-link/verify', { body: { token } }));
      setOutcome(outcomeOf(answer, null));
    });

  return (
    <main>
      <h1>Sign in to RDE</h1>
      {outcome ? (
        <OutcomeView outcome={outcome} />
      ) : (
        <button type="button" onClick={verify} disabled={busy}>
          Continue signing in
        </button>
      )}
      <Problem problem={problem} />
      {problem && (
        <p>
          <a href="/app/auth/signin">Ask for a new link</a>
        </p>
      )}
    </main>
  );
}
