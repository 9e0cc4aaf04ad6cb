import type { Caller } from '../../src';

/** Whom the gRPC kit's test calls act for: every field set, so a field lost in transit shows. */
export const CALLER: Caller = {
  workspaceId: 'ws_9',
  userId: 'u_9',
  role: 'member',
  keyId: 'k9',
  sessionId: 's',
  requestId: 'r1',
};
