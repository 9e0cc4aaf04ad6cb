import { useState } from 'react';
import { api } from '../api/client';
import { answered, useAction } from '../api/call';
import { Field } from '../components/Field';
import { Form } from '../components/Form';
import { Section } from '../components/Section';

/**
 * A browser already signed in approves the waiting command line at once; an invite code binds it
 * to the team workspace that invited this person.
 */
export function ApproveClaim({ claimId, email, inviteCode }: { claimId: string; email: string; inviteCode?: string }) {
  const [code, setCode] = useState(inviteCode ?? '');
  const [approved, setApproved] = useState(false);
  const { problem, busy, run } = useAction();

  const approve = () =>
    run(async () => {
      const body = { claim_id: claimId, ...(code ? { invite_code: code } : {}) };
      await answered(api.POST('/api/v2/auth/cli/approve', { body }));
      setApproved(true);
    });

  return (
    <Section title="Approve the command line" problem={problem}>
      {approved ? (
        <p role="status">The command line is signed in. You can close this tab and return to your terminal.</p>
      ) : (
        <Form submit="Approve" busy={busy} onSubmit={approve}>
          <p>A command line is waiting to sign in as {email}. Approve it only if you started it.</p>
          <Field label="Invite code (optional)" required={false} value={code} onValue={setCode} />
        </Form>
      )}
    </Section>
  );
}
