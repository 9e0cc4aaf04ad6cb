import { useState } from 'react';
import { useSearch } from 'wouter';
import { api } from '../api/client';
import { answered, useAction } from '../api/call';
import { Field } from '../components/Field';
import { Form } from '../components/Form';
import { Problem } from '../components/Problem';
import { OutcomeView } from '../components/OutcomeView';
import { outcomeOf, type Outcome } from './sign-in-outcome';

/** The emailed set-password link's page: sets the password and signs in. */
export function SetPassword() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [outcome, setOutcome] = useState<Outcome>();
  const { problem, busy, run } = useAction();

  const complete = () =>
    run(async () => {
      const answer = await answered(api.POST('/api/v2/auth/password/signup/complete', { body: { token, password } }));
      setOutcome(outcomeOf(answer, null));
    });

  return (
    <main>
      <h1>Set your password</h1>
      {outcome ? (
        <OutcomeView outcome={outcome} />
      ) : (
        <Form submit="Set password and sign in" busy={busy} onSubmit={complete}>
          <Field
            label="New password"
            type="password"
            autoComplete="new-password"
            value={password}
            onValue={setPassword}
          />
        </Form>
      )}
      <Problem problem={problem} />
    </main>
  );
}
