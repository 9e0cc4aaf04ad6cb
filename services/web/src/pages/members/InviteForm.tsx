import { useState } from 'react';
import { api } from '../../api/client';
import { answered, useAction } from '../../api/call';
import { Field } from '../../components/Field';
import { Form } from '../../components/Form';
import { Section } from '../../components/Section';

/** Invites an email (emailed a sign-in link and a code), with an optional spend cap in USD. */
export function InviteForm({ onInvited }: { onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [cap, setCap] = useState('');
  const [invited, setInvited] = useState<string>();
  const { problem, busy, run } = useAction();
  const invite = () =>
    run(async () => {
      const body = { email, spend_cap_usd: cap ? Number(cap) : null };
      const answer = await answered(api.POST('/api/v2/workspace/invites', { body }));
      setInvited(answer.invite.email);
      setEmail('');
      setCap('');
      onInvited();
    });
  return (
    <Section title="Invite a member" problem={problem}>
      <Form submit="Send the invite" busy={busy} onSubmit={invite}>
        <Field label="Email" type="email" value={email} onValue={setEmail} />
        <Field
          label="Spend cap over 30 days, USD (optional)"
          type="number"
          min="0.01"
          step="any"
          required={false}
          value={cap}
          onValue={setCap}
        />
      </Form>
      {invited && <p role="status">We emailed an invite to {invited}.</p>}
    </Section>
  );
}
