import { api } from '../../api/client';
import { answered, useLoaded } from '../../api/call';
import { usd, when } from '../../api/format';
import { SignedInLayout } from '../../components/SignedInLayout';
import { Section } from '../../components/Section';
import { Table, type Column } from '../../components/Table';
import { InviteForm } from './InviteForm';
import { MemberCapForm } from './MemberCapForm';

export type MembersData = Awaited<ReturnType<typeof loadMembers>>;
type Member = MembersData['members'][number];
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
 * Members and invites: every member reads the lists; the owner also invites and sets members'
 * caps. A member sees the page read-only (decision 0077).
 */
export function Members() {
  const { data, problem, reload } = useLoaded(loadMembers);
  const owner = data?.me.role === 'owner';
  return (
    <SignedInLayout title="Members and invites" problem={problem}>
      {data && (
        <>
          <Section title="Members">
            <Table columns={memberColumns(data.me.user.id)} rows={data.members} rowKey={(member) => member.user_id} />
          </Section>
          {owner ? (
            <>
              <InviteForm onInvited={reload} />
              <MemberCapForm members={data.members.filter((member) => member.role !== 'owner')} onChanged={reload} />
            </>
          ) : (
            <p>Only the workspace owner can invite members or change their caps.</p>
          )}
          <Section title="Invites">
            <Table columns={INVITE_COLUMNS} rows={data.invites} rowKey={(invite) => invite.id} />
          </Section>
        </>
      )}
    </SignedInLayout>
  );
}

const memberColumns = (myId: string): Column<Member>[] => [
  { header: 'Member', cell: (member) => (member.user_id === myId ? `${member.user_id} (you)` : member.user_id) },
  { header: 'Role', cell: (member) => member.role },
  { header: 'Spent over 30 days', cell: (member) => usd(member.spent_30d_usd) },
  { header: 'Spend cap', cell: (member) => (member.cap_usd === null ? 'none' : usd(member.cap_usd)) },
];

const INVITE_COLUMNS: Column<Invite>[] = [
  { header: 'Email', cell: (invite) => invite.email },
  { header: 'Spend cap', cell: (invite) => (invite.spend_cap_usd === null ? 'none' : usd(invite.spend_cap_usd)) },
  { header: 'Invited', cell: (invite) => when(invite.created_at) },
  { header: 'Joined', cell: (invite) => (invite.accepted_at ? when(invite.accepted_at) : 'not yet') },
];
