import type { Caller } from '@rde/platform';

/**
 * What a job or a run keeps of its caller, so work finished after the request is gone (a chunk, a
 * take-over, a provider job settled later) still acts for the same payer: workspace, member,
 * session, and the workflow run whose step started it (its charges' ledger rows name that run).
 */
export interface StoredCaller {
  workspace_id: string;
  user_id: string;
  session_id: string;
  workflow_run_id?: string;
}

/** The caller's fields as a run or a job stores them. */
export function storedCallerOf(caller: Caller): StoredCaller {
  return {
    workspace_id: caller.workspaceId,
    user_id: caller.userId,
    session_id: caller.sessionId,
    ...(caller.workflowRunId && { workflow_run_id: caller.workflowRunId }),
  };
}

/** The caller a job or a run acts for once its request is gone. */
export function callerOf(work: StoredCaller & { _id: string }): Caller {
  return {
    workspaceId: work.workspace_id,
    userId: work.user_id,
    role: '',
    keyId: '',
    sessionId: work.session_id,
    requestId: work._id,
    ...(work.workflow_run_id && { workflowRunId: work.workflow_run_id }),
  };
}

/** The payer of a settlement written for a stored run or job (the paid-run kit's settlement fields). */
export function settlementPayerOf(work: StoredCaller) {
  return {
    workspaceId: work.workspace_id,
    userId: work.user_id,
    sessionId: work.session_id,
    workflowRunId: work.workflow_run_id,
  };
}
