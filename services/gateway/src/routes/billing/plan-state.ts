import type { auth } from '@rde/proto';

export function parseJson(bytes: Buffer): Record<string, unknown> {
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>;
}

/** Billing knows the seat limit; auth counts the members. */
export function withSeatsUsed(planStateJson: Buffer, membership: auth.GetWorkspaceResponse) {
  const state = parseJson(planStateJson) as { seats?: { limit: number | null } };
  return { ...state, seats: { used: membership.seatsUsed, limit: state.seats?.limit ?? null } };
}
