import { clientSet, type AddressBook, type Caller } from '@rde/platform';
import { billingCaps } from '@rde/proto';

/** Where an accepted invite's spend cap goes: billing's member caps (decision 0020). */
export interface MemberCaps {
  /** Sets `userId`'s rolling 30-day cap in `workspaceId`, as the owner who invited them. */
  apply(workspaceId: string, ownerUserId: string, userId: string, capUsd: number): Promise<void>;
  close(): void;
}

/** USD → whole cents as the caps routes round them: to the cent, and above 0 is at least one. */
const centsOf = (usd: number) => Math.max(1, Math.round(usd * 100));

/**
 * Billing is reached on the first accepted invite with a cap, not at start: auth starts (and its own
 * tests run) without a billing address, and only an invite with a cap needs one.
 */
export function billingMemberCaps(addresses: AddressBook, deadlineMs: number): MemberCaps {
  const clients = clientSet(addresses, deadlineMs);
  let connected: ReturnType<typeof connect> | undefined;
  const connect = () => clients.connect('billing', billingCaps.SpendCapServiceService);
  return {
    async apply(workspaceId, ownerUserId, userId, capUsd) {
      const caps = (connected ??= connect());
      // The owner set this cap when inviting (an owner-only act); billing applies it under their name.
      const caller: Caller = {
        workspaceId,
        userId: ownerUserId,
        role: 'owner',
        keyId: '',
        sessionId: '',
        requestId: '',
      };
      await caps.setMemberCap({ userId, capCents: centsOf(capUsd) }, { caller });
    },
    close: () => clients.close(),
  };
}
