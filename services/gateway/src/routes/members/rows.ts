import type { Caller } from '@rde/platform';
import type { auth } from '@rde/proto';
import type { Clients } from '../../clients';

/** Whole cents → USD; 0 is billing's "no cap". */
export const usd = (amountCents: number) => (amountCents === 0 ? null : amountCents / 100);

/** Members as the member routes show them: auth's membership with billing's cap and 30-day spend. */
export async function memberRows(clients: Pick<Clients, 'spendCaps'>, caller: Caller, members: auth.Member[]) {
  const { members: caps } = await clients.spendCaps.listMemberCaps(
    { userIds: members.map((member) => member.userId) },
    { caller },
  );
  return members.map((member, index) => ({
    user_id: member.userId,
    email: member.email,
    role: member.role,
    cap_usd: usd(caps[index]?.capCents ?? 0),
    spent_30d_usd: (caps[index]?.spent30dCents ?? 0) / 100,
  }));
}
