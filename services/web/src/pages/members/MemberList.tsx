import { useState } from 'react';
import { api } from '../../api/client';
import { answered, useAction } from '../../api/call';
import { usd } from '../../api/format';
import { Section } from '../../components/Section';
import { Table, type Column } from '../../components/Table';
import type { Member } from './Members';
import { RemoveConfirmation } from './RemoveConfirmation';
import { RoleControl } from './RoleControl';

/**
 * The members with their roles, spend and caps. An owner also changes roles and removes members
 * (after a confirmation); a member reads the list (decision 0087). Refusals (403, 404, the last
 * owner's 409) are said in the section as the API words them.
 */
export function MemberList({
  members,
  myId,
  owner,
  onChanged,
}: {
  members: Member[];
  myId: string;
  owner: boolean;
  onChanged: () => void;
}) {
  const { problem, busy, run } = useAction();
  const [removing, setRemoving] = useState<Member>();
  const [done, setDone] = useState<string>();
  const path = (member: Member) => ({ params: { path: { user_id: member.user_id } } });
  const act = (action: () => Promise<string>) =>
    run(async () => {
      setDone(undefined);
      setDone(await action());
      onChanged();
    });
  const changeRole = (member: Member, role: Member['role']) =>
    act(async () => {
      await answered(api.PUT('/api/v2/workspaces/members/{user_id}/role', { ...path(member), body: { role } }));
      return `${member.email} is now ${role === 'owner' ? 'an owner' : 'a member'}.`;
    });
  const remove = (member: Member) =>
    act(async () => {
      setRemoving(undefined);
      await answered(api.DELETE('/api/v2/workspaces/members/{user_id}', path(member)));
      return `${member.email} was removed from the workspace.`;
    });

  const columns: Column<Member>[] = [
    { header: 'Member', cell: (member) => (member.user_id === myId ? `${member.email} (you)` : member.email) },
    {
      header: 'Role',
      cell: (member) =>
        owner ? (
          <RoleControl member={member} busy={busy} onSave={(role) => void changeRole(member, role)} />
        ) : (
          member.role
        ),
    },
    { header: 'Spent over 30 days', cell: (member) => usd(member.spent_30d_usd) },
    { header: 'Spend cap', cell: (member) => (member.cap_usd === null ? 'none' : usd(member.cap_usd)) },
  ];
  if (owner) {
    columns.push({
      header: 'Actions',
      hiddenHeader: true,
      cell: (member) => (
        <button type="button" disabled={busy} onClick={() => setRemoving(member)} aria-label={`Remove ${member.email}`}>
          Remove
        </button>
      ),
    });
  }
  return (
    <Section title="Members" problem={problem}>
      <Table columns={columns} rows={members} rowKey={(member) => member.user_id} />
      {removing && (
        <RemoveConfirmation
          member={removing}
          busy={busy}
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(undefined)}
        />
      )}
      {done && <p role="status">{done}</p>}
    </Section>
  );
}
