import { errors, type Caller, type Clock, type Mail } from '@rde/platform';
import { newId } from '../domain/ids';
import { email as emailSchema } from '../domain/inputs';
import { hashSecret, mintSecret } from '../domain/secrets';
import type { AuthStore, InviteDocument } from '../store';
import { storeThenMail } from './emailed-links';

/** Workspace invites: the owner invites an email; any sign-in proving that email joins. */
export class Invites {
  constructor(
    private readonly store: AuthStore,
    private readonly mail: Mail,
    private readonly clock: Clock,
    private readonly dashboardUrl: string,
  ) {}

  list(caller: Caller): Promise<InviteDocument[]> {
    return this.store.invites.inWorkspace(caller.workspaceId);
  }

  /**
   * Owner only. An invalid email is 400 and nothing is stored; the invitee is emailed the code
   * (502 and nothing stored when that fails). The cap is stored for billing to apply on acceptance.
   */
  async create(
    caller: Caller,
    rawEmail: string,
    spendCapUsd: number | null,
  ): Promise<{ invite: InviteDocument; code: string }> {
    if (caller.role !== 'owner') throw errors.forbidden('Only the workspace owner can invite members');
    const parsed = emailSchema.safeParse(rawEmail);
    if (!parsed.success)
      throw errors.badRequest({ detail: { reason: 'invalid_email', message: `${rawEmail} is not an email address` } });
    const email = parsed.data;
    const code = mintSecret('rde_inv_');
    const invite: InviteDocument = {
      _id: newId('inv'),
      workspace_id: caller.workspaceId,
      email,
      code_hash: hashSecret(code),
      spend_cap_usd: spendCapUsd,
      invited_by_user_id: caller.userId,
      created_at_ms: this.clock.now(),
      accepted_at_ms: null,
    };
    const link = new URL(`auth/signin?invite_code=${encodeURIComponent(code)}`, this.dashboardUrl).toString();
    await storeThenMail(
      () => this.store.invites.insert(invite),
      () => this.store.invites.remove(invite._id),
      this.mail,
      {
        to: email,
        subject: 'You are invited to an RDE workspace',
        text: `You were invited to join an RDE workspace. Sign in with this address to join:\n\n${link}\n\nInvite code: ${code}`,
      },
    );
    return { invite, code };
  }
}
