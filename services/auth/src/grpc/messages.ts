import { signin, type auth } from '@rde/proto';
import { titleOf } from '../app/feedback';
import type { VerifyOutcome } from '../app/magic-links';
import type { IntegrationStanding } from '../domain/integrations';
import type { MemberRow } from '../domain/roles';
import type { ApiKeyDocument, FeedbackDocument, InviteDocument, UserDocument, WorkspaceDocument } from '../store';

/** Stored documents as contract messages; a key's hash never leaves the service. */
export function toWorkspace(workspace: WorkspaceDocument): auth.Workspace {
  return {
    id: workspace._id,
    name: workspace.name,
    ownerUserId: workspace.owner_user_id,
    createdAtMs: workspace.created_at_ms,
  };
}

export function toMember(member: MemberRow): auth.Member {
  return { userId: member.user_id, email: member.email, role: member.role };
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

export function toSignInResult(outcome: VerifyOutcome): signin.SignInResult {
  const common = { userId: outcome.user._id, email: outcome.user.email };
  if (outcome.kind === 'set_password') {
    return { ...emptyResult, ...common, kind: outcome.kind, setPasswordToken: outcome.setPasswordToken };
  }
  return {
    ...emptyResult,
    ...common,
    kind: outcome.kind,
    sessionToken: outcome.sessionToken,
    sessionExpiresAtMs: outcome.sessionExpiresAtMs,
    nextUrl: outcome.nextUrl ?? '',
    workspaceId: outcome.workspaceId,
  };
}

const emptyResult: signin.SignInResult = signin.SignInResult.fromPartial({});

export function toInvite(invite: InviteDocument): signin.Invite {
  return {
    id: invite._id,
    email: invite.email,
    spendCapUsd: invite.spend_cap_usd ?? undefined,
    invitedByUserId: invite.invited_by_user_id,
    createdAtMs: invite.created_at_ms,
    acceptedAtMs: invite.accepted_at_ms ?? 0,
  };
}

export function toFeedback(report: FeedbackDocument): signin.Feedback {
  return {
    id: report._id,
    title: titleOf(report.message),
    message: report.message,
    category: report.category,
    userId: report.user_id,
    createdAtMs: report.created_at_ms,
  };
}

export function toIntegration(standing: IntegrationStanding): signin.Integration {
  return { provider: standing.provider, app: standing.app, connectedAtMs: standing.connectedAtMs ?? 0 };
}
