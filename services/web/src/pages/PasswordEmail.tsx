import { useState } from 'react';
import { api } from '../api/client';
import { answered, useAction } from '../api/call';
import { Field } from '../components/Field';
import { Form } from '../components/Form';
import { Section } from '../components/Section';

/** Sign-up and password reset are one request: an emailed set-password link (it proves the address). */
export function PasswordEmail() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { problem, busy, run } = useAction();

  const send = () =>
    run(async () => {
      await answered(api.POST('/api/v2/auth/password/signup', { body: { email } }));
      setSent(true);
    });

  return (
    <Section title="Create an account or reset a password" problem={problem}>
      {sent ? (
        <p role="status">If {email} can have a password, a link to set it is on its way.</p>
      ) : (
        <Form submit="Email me a link to set a password" busy={busy} onSubmit={send}>
          <Field label="Email" type="email" autoComplete="email" value={email} onValue={setEmail} />
        </Form>
      )}
    </Section>
  );
}
