import { useState } from 'react';
import { api } from '../../api/client';
import { answered, useAction } from '../../api/call';
import { Choice } from '../../components/Choice';
import { Field } from '../../components/Field';
import { Form } from '../../components/Form';
import { Section } from '../../components/Section';
import { TextArea } from '../../components/TextArea';

const TOPICS = [
  { value: 'general', text: 'A question' },
  { value: 'technical', text: 'Something does not work' },
  { value: 'billing', text: 'Billing' },
];

/**
 * Emails the support inbox. Signed out, a reply address is required (nobody else knows where to
 * answer); signed in, a technical report is also stored as the workspace's feedback.
 */
export function SupportForm({ signedIn, onSent }: { signedIn: boolean; onSent: () => void }) {
  const [message, setMessage] = useState('');
  const [category, setCategory] = useState(TOPICS[0]!.value);
  const [email, setEmail] = useState('');
  const [receipt, setReceipt] = useState<string>();
  const { problem, busy, run } = useAction();
  const send = () =>
    run(async () => {
      const body = { message, category, ...(email ? { email } : {}) };
      const { stored } = await answered(api.POST('/api/v2/support', { body }));
      setReceipt(stored ? 'Sent to support, and listed with your feedback.' : 'Sent to support.');
      setMessage('');
      if (stored) onSent();
    });
  return (
    <Section title="Contact support" problem={problem}>
      <Form submit="Send to support" busy={busy} onSubmit={send}>
        <Choice label="Topic" value={category} onValue={setCategory} options={TOPICS} />
        <TextArea label="Message (the first line is its subject)" value={message} onValue={setMessage} />
        <Field
          label={signedIn ? 'Your email for the answer (optional)' : 'Your email for the answer'}
          type="email"
          autoComplete="email"
          required={!signedIn}
          value={email}
          onValue={setEmail}
        />
      </Form>
      {receipt && <p role="status">{receipt}</p>}
    </Section>
  );
}
