import type { Collection, Update } from '@rde/platform';
import type { StepStatus } from '../domain/sessions';

/** Collection `sessions` (billing's database), `_id` = the `ses_` id. Its money lives on the account. */
export type SessionDocument = {
  _id: string;
  workspace_id: string;
  /** who started it */
  user_id: string;
  user_prompt: string;
  /** the plan's steps as the client sent them */
  steps: unknown[];
  step_statuses: StepStatus[];
  message: string | null;
  step_index: number | null;
  alert: string | null;
  outputs: { csv: string; label: string; created_at: number }[];
  feedback: { message: string; user_id: string; created_at: number }[];
  created_at: number;
  ended_at: number | null;
};

export class SessionsRepository {
  constructor(private readonly collection: Collection<SessionDocument>) {}

  async createIndexes(): Promise<void> {
    await this.collection.createIndex({ keys: { workspace_id: 1, created_at: -1 }, name: 'workspace_time' });
  }

  insert(session: SessionDocument): Promise<void> {
    return this.collection.insertOne(session);
  }

  /** Another workspace's session is as absent as an unknown one. */
  find(workspaceId: string, sessionId: string): Promise<SessionDocument | null> {
    return this.collection.findOne({ _id: sessionId, workspace_id: workspaceId });
  }

  /** One single-document update of the workspace's session; the session after it, or null when absent. */
  update(workspaceId: string, sessionId: string, update: Update, guard: Record<string, unknown> = {}) {
    return this.collection.findOneAndUpdate({ _id: sessionId, workspace_id: workspaceId, ...guard }, update);
  }
}
