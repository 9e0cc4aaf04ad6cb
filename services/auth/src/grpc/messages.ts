import type { auth } from '@rde/proto';
import type { ApiKeyDocument, UserDocument, WorkspaceDocument } from '../store';

/** Stored documents as contract messages; a key's hash never leaves the service. */
export function toWorkspace(workspace: WorkspaceDocument): auth.Workspace {
  return {
    id: workspace._id,
    name: workspace.name,
    ownerUserId: workspace.owner_user_id,
    createdAtMs: workspace.created_at_ms,
  };
}

export function toUser(user: UserDocument): auth.User {
  return { id: user._id, email: user.email };
}

export function toApiKey(key: ApiKeyDocument): auth.ApiKey {
  return {
    id: key._id,
    name: key.name,
    displayPrefix: key.display_prefix,
    workspaceId: key.workspace_id,
    createdByUserId: key.user_id,
    createdAtMs: key.created_at_ms,
    lastUsedAtMs: key.last_used_at_ms,
  };
}
