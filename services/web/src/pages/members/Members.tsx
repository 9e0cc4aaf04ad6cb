import { api } from '../../api/client';
import { answered, useLoaded } from '../../api/call';
import { usd, when } from '../../api/format';
import { SignedInLayout } from '../../components/SignedInLayout';
import { Section } from '../../components/Section';
import { Table, type Column } from '../../components/Table';
import { InviteForm } from './InviteForm';
import { MemberCapForm } from './MemberCapForm';
import { MemberList } from './MemberList';

export type MembersData = Awaited<ReturnType<typeof loadMembers>>;
export type Member = MembersData['members'][number];
type Invite = MembersData['invites'][number];

async function loadMembers() {
  const [me, caps, invites] = await Promise.all([
    answered(api.GET('/api/v2/me')),
    answered(api.GET('/api/v2/workspaces/members/spend-caps')),
    answered(api.GET('/api/v2/workspace/invites')),
  ]);
  return { me, members: caps.members, invites: invites.invites };
}

/**
 * Members and invites: every member reads the lists; the owner also invites, sets members' caps,
 * changes roles and removes members. A member sees the page read-only (decisions 0077, 0087).
 */
export function Members() {
  const { data, problem, reload } = useLoaded(loadMembers);
  const owner = data?.me.role === 'owner';
  return (
    <SignedInLayout title="Members and invites" problem={problem}>
      {data && (
        <>
          <MemberList members={data.members} myId={data.me.user.id} owner={owner} onChanged={reload} />
          {owner ? (
            <>
              <InviteForm onInvited={reload} />
              <MemberCapForm
                // A new list (a member removed, a role changed) starts the form afresh.
                key={data.members.map((member) => `${member.user_id}:${member.role}`).join()}
                members={data.members.filter((member) => member.role !== 'owner')}
                onChanged={reload}
              />
            </>
          ) : (
            <p>Only the workspace owner can invite members, change their caps and roles, or remove them.</p>
          )}
          <Section title="Invites">
            <Table columns={INVITE_COLUMNS} rows={data.invites} rowKey={(invite) => invite.id} />
          </Section>
        </>
      )}
    </SignedInLayout>
  );
}

const INVITE_COLUMNS: Column<Invite>[] = [
  { header: 'Email', cell: (invite) => invite.email },
  { header: 'Spend cap', cell: (invite) => (invite.spend_cap_usd === null ? 'none' : usd(invite.spend_cap_usd)) },
  { header: 'Invited', cell: (invite) => when(invite.created_at) },
  { header: 'Joined', cell: (invite) => (invite.accepted_at ? when(invite.accepted_at) : 'not yet') },
];
