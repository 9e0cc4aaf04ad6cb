import { useState } from 'react';
import { api } from '../../api/client';
import { answered, useAction } from '../../api/call';
import { Choice } from '../../components/Choice';
import { Form } from '../../components/Form';
import { Section } from '../../components/Section';
import { TextArea } from '../../components/TextArea';

const KINDS = [
  { value: 'idea', text: 'An idea' },
  { value: 'technical', text: 'Something does not work' },
  { value: 'general', text: 'Anything else' },
];

/** Files product feedback for the workspace; its first line is its title. */
export function FeedbackForm({ onSent }: { onSent: () => void }) {
  const [message, setMessage] = useState('');
  const [category, setCategory] = useState(KINDS[0]!.value);
  const [sent, setSent] = useState<string>();
  const { problem, busy, run } = useAction();
  const send = () =>
    run(async () => {
      const report = await answered(api.POST('/api/v2/feedback', { body: { message, category } }));
      setSent(report.title);
      setMessage('');
      onSent();
    });
  return (
    <Section title="Send feedback" problem={problem}>
      <Form submit="Send feedback" busy={busy} onSubmit={send}>
        <Choice label="Kind" value={category} onValue={setCategory} options={KINDS} />
        <TextArea label="Feedback (the first line is its title)" value={message} onValue={setMessage} />
      </Form>
      {sent && <p role="status">Thank you: “{sent}” is listed below.</p>}
    </Section>
  );
}
