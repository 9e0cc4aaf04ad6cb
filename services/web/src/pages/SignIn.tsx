import { useCallback, useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { api } from '../api/client';
import { Problem } from '../components/Problem';
import { OutcomeView } from '../components/OutcomeView';
import { ApproveClaim } from './ApproveClaim';
import { CodeSignIn } from './CodeSignIn';
import { PasswordSignIn } from './PasswordSignIn';
import { PasswordEmail } from './PasswordEmail';
import type { Outcome } from './sign-in-outcome';

/** Where the sign-in came from: a waiting CLI claim, a page to return to, an invite. */
export interface SignInContext {
  cli_token?: string;
  next?: string;
  invite_code?: string;
}

/** The sign-in page: emailed code (or link), password, and sign-up or reset by emailed link. */
export function SignIn() {
  const query = new URLSearchParams(useSearch());
  const context = contextOf(query);
  const [outcome, setOutcome] = useState<Outcome>();
  const failed = query.get('error') === 'connect';
  const { email: signedInAs, recheck } = useSignedInEmail();
  // The spec binds a claim approved by a sign-in to the home workspace; an invited CLI is approved
  // afterwards, signed in, with its invite code, which binds it to the team that invited.
  const invitedCli = Boolean(context.cli_token && context.invite_code);
  const legContext = invitedCli ? { ...context, cli_token: undefined } : context;
  const signedIn = (done: Outcome) => (invitedCli ? void recheck() : setOutcome(done));
  if (context.cli_token && signedInAs)
    return (
      <main>
        <h1>Sign in to RDE</h1>
        <ApproveClaim claimId={context.cli_token} email={signedInAs} inviteCode={context.invite_code} />
      </main>
    );
  return (
    <main>
      <h1>Sign in to RDE</h1>
      {context.cli_token && (
        <p>
          {invitedCli
            ? 'Sign in first; then approve the command line that is waiting for you, for the team that invited you.'
            : 'Signing in approves the command line that is waiting for you.'}
        </p>
      )}
      <Problem problem={failed ? { message: 'Signing in with the identity provider failed. Try again.' } : undefined} />
      {outcome ? (
        <OutcomeView outcome={outcome} />
      ) : (
        <>
          <CodeSignIn context={legContext} onSignedIn={signedIn} />
          <PasswordSignIn context={legContext} onSignedIn={signedIn} />
          <PasswordEmail />
        </>
      )}
    </main>
  );
}

function contextOf(query: URLSearchParams): SignInContext {
  const context: SignInContext = {};
  for (const name of ['cli_token', 'next', 'invite_code'] as const) {
    const value = query.get(name);
    if (value) context[name] = value;
  }
  return context;
}

/** The signed-in person's email, when this browser has a session; otherwise undefined. */
function useSignedInEmail() {
  const [email, setEmail] = useState<string>();
  const recheck = useCallback(
    () => api.GET('/api/v2/me').then(({ data }) => setEmail(data?.user?.email ?? undefined)),
    [],
  );
  useEffect(() => void recheck(), [recheck]);
  return { email, recheck };
}
