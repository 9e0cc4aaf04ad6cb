import { useState } from 'react';
import { api } from '../api/client';
import { answered, useAction } from '../api/call';
import { Field } from '../components/Field';
import { Form } from '../components/Form';
import { Section } from '../components/Section';
import { outcomeOf, type Outcome } from './sign-in-outcome';
import type { SignInContext } from './SignIn';

/** Email and password; a waiting CLI claim rides along. */
export function PasswordSignIn({ context, onSignedIn }: { context: SignInContext; onSignedIn: (o: Outcome) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { problem, busy, run } = useAction();

  const login = () =>
    run(async () => {
      const body = { email, password, ...(context.cli_token ? { cli_token: context.cli_token } : {}) };
      const answer = await answered(api.POST('/api/v2/auth/password/login', { body }));
      onSignedIn(outcomeOf(answer, context.next ?? null));
    });

  return (
    <Section title="Sign in with a password" problem={problem}>
      <Form submit="Sign in with password" busy={busy} onSubmit={login}>
        <Field label="Email" type="email" autoComplete="username" value={email} onValue={setEmail} />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
        />
      </Form>
    </Section>
  );
}
