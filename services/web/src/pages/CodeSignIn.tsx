import { useState } from 'react';
import { api } from '../api/client';
import { answered, useAction } from '../api/call';
import { Field } from '../components/Field';
import { Form } from '../components/Form';
import { Section } from '../components/Section';
import { outcomeOf, type Outcome } from './sign-in-outcome';
import type { SignInContext } from './SignIn';

/** Step one emails a code and a link; step two takes the 6-digit code. */
export function CodeSignIn({ context, onSignedIn }: { context: SignInContext; onSignedIn: (o: Outcome) => void }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState('');
  const { problem, busy, run } = useAction();

  const send = () =>
    run(async () => {
      await answered(api.POST('/api/v2/auth/magic-link', { body: { email, ...context } }));
      setSent(true);
    });
  const verify = () =>
    run(async () => {
      const answer = await answered(api.POST('/api/v2/auth/magic-link/verify-code', { body: { email, code } }));
      onSignedIn(outcomeOf(answer, context.next ?? null));
    });

  return (
    <Section title="Email me a sign-in code" problem={problem}>
      {sent ? (
        <Form submit="Sign in" busy={busy} onSubmit={verify}>
          <p role="status">We emailed a 6-digit code and a sign-in link to {email}.</p>
          <Field label="Code" inputMode="numeric" autoComplete="one-time-code" value={code} onValue={setCode} />
        </Form>
      ) : (
        <Form submit="Email me a code" busy={busy} onSubmit={send}>
          <Field label="Email" type="email" autoComplete="email" value={email} onValue={setEmail} />
        </Form>
      )}
    </Section>
  );
}
