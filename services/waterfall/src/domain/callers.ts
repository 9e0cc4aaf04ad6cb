import type { Caller } from '@rde/platform';

/** The caller a job or a run acts for once its request is gone: its workspace, member and session. */
export function callerOf(work: { _id: string; workspace_id: string; user_id: string; session_id: string }): Caller {
  return {
    workspaceId: work.workspace_id,
    userId: work.user_id,
    role: '',
    keyId: '',
    sessionId: work.session_id,
    requestId: work._id,
  };
}
