import { useState } from 'react';
import { api } from '../../api/client';
import { answered, useAction } from '../../api/call';
import { Choice } from '../../components/Choice';
import { Field } from '../../components/Field';
import { Form } from '../../components/Form';
import { Section } from '../../components/Section';
import type { MembersData } from './Members';

/** Sets or removes a member's rolling 30-day cap in USD. */
export function MemberCapForm({ members, onChanged }: { members: MembersData['members']; onChanged: () => void }) {
  const [userId, setUserId] = useState(members[0]?.user_id ?? '');
  const [cap, setCap] = useState('');
  const { problem, busy, run } = useAction();
  if (members.length === 0) return null;
  const path = { params: { path: { user_id: userId } } };
  const set = () =>
    run(async () => {
      await answered(
        api.PUT('/api/v2/workspaces/members/{user_id}/spend-cap', { ...path, body: { cap_usd: Number(cap) } }),
      );
      setCap('');
      onChanged();
    });
  const remove = () =>
    run(async () => {
      await answered(api.DELETE('/api/v2/workspaces/members/{user_id}/spend-cap', path));
      onChanged();
    });
  return (
    <Section title="A member's spend cap" problem={problem}>
      <Form submit="Set the member's cap" busy={busy} onSubmit={set}>
        <Choice
          label="Member"
          value={userId}
          onValue={setUserId}
          options={members.map((member) => ({ value: member.user_id, text: member.email }))}
        />
        <Field label="Cap over 30 days, USD" type="number" min="0.01" step="any" value={cap} onValue={setCap} />
      </Form>
      <p>
        <button type="button" disabled={busy} onClick={() => void remove()}>
          Remove the member's cap
        </button>
      </p>
    </Section>
  );
}
