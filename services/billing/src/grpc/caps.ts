import { workspaceCallerOf } from '@rde/platform';
import type { Handlers } from '@rde/platform';
import type { billingCaps } from '@rde/proto';
import type { SpendCaps } from '../app/spend-caps';

/** Proto ⇄ use case only; 0 stands for "no cap" on the wire. */
export function spendCapHandlers(caps: SpendCaps): Handlers<typeof billingCaps.SpendCapServiceService> {
  return {
    async setWorkspaceCap(request, context) {
      return {
        capMillicredits: (await caps.setWorkspaceCap(workspaceCallerOf(context), request.capMillicredits)) ?? 0,
      };
    },
    async setSessionDefaultCap(request, context) {
      return { capCents: (await caps.setSessionDefaultCap(workspaceCallerOf(context), request.capCents)) ?? 0 };
    },
    async setMemberCap(request, context) {
      const cap = await caps.setMemberCap(workspaceCallerOf(context), request.userId, request.capCents);
      return { userId: request.userId, capCents: cap ?? 0 };
    },
    async listMemberCaps(request, context) {
      const rows = await caps.memberCaps(workspaceCallerOf(context), request.userIds);
      return {
        members: rows.map((row) => ({
          userId: row.user_id,
          capCents: row.cap_cents ?? 0,
          spent30dCents: row.spent_30d_cents,
        })),
      };
    },
  };
}
