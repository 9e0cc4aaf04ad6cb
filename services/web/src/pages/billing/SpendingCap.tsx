import { useState } from 'react';
import { api } from '../../api/client';
import { answered, useAction } from '../../api/call';
import { credits } from '../../api/format';
import { Field } from '../../components/Field';
import { Form } from '../../components/Form';
import { Section } from '../../components/Section';

/** The workspace's rolling 30-day cap in credits: set, or cleared (owner only: the API decides). */
export function SpendingCap({ cap, spent, onChanged }: { cap: number | null; spent: number; onChanged: () => void }) {
  const [value, setValue] = useState('');
  const { problem, busy, run } = useAction();
  const set = () =>
    run(async () => {
      await answered(api.PUT('/api/v2/billing/spending-cap', { body: { cap: Number(value) } }));
      setValue('');
      onChanged();
    });
  const clear = () =>
    run(async () => {
      await answered(api.DELETE('/api/v2/billing/spending-cap'));
      onChanged();
    });

  return (
    <Section title="Spending cap" problem={problem}>
      <p data-testid="spending-cap">
        {cap === null ? 'No cap' : `Capped at ${credits(cap)}`} over the last 30 days; {credits(spent)} spent.
      </p>
      <Form submit="Set the cap" busy={busy} onSubmit={set}>
        <Field label="Cap in credits" type="number" min="1" step="any" value={value} onValue={setValue} />
      </Form>
      {cap !== null && (
        <p>
          <button type="button" disabled={busy} onClick={() => void clear()}>
            Remove the cap
          </button>
        </p>
      )}
    </Section>
  );
}
