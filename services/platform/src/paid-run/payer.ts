import type { billing } from '@rde/proto';
import type { ServiceClient } from '../grpc/client';
import type { Caller } from '../grpc/metadata';

/** Billing's RPCs as every service's client set connects them. */
export type BillingClient = ServiceClient<typeof billing.BillingServiceService>['rpc'];

/**
 * Who pays for a run: its workspace, and the member and session whose caps it counts against. A
 * caller with no user (a workflow step) leaves `userId` and `sessionId` empty: only the workspace's
 * cap applies.
 */
export type Payer = Caller;

/** A workspace's money as billing answered, in millicredits (open holds included in `reserved`). */
export interface Account {
  readonly balance: number;
  readonly reserved: number;
  readonly available: number;
}

export function accountOf(account: billing.Account | undefined): Account {
  return {
    balance: account?.balance?.millicredits ?? 0,
    reserved: account?.reserved?.millicredits ?? 0,
    available: account?.available?.millicredits ?? 0,
  };
}
