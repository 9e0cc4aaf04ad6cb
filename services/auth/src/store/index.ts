import type { Clock, DocumentStore } from '@rde/platform';
import { ApiKeysRepository } from './api-keys';
import { MembershipsRepository } from './memberships';
import { UsersRepository } from './users';
import { WorkspacesRepository } from './workspaces';
import { ClaimsRepository } from './claims';
import { FeedbackRepository } from './feedback';
import { IntegrationsRepository } from './integrations';
import { InvitesRepository } from './invites';
import { MagicLinksRepository } from './magic-links';
import { OAuthStatesRepository } from './oauth-states';
import { SessionsRepository } from './sessions';

export type { ApiKeyDocument } from './api-keys';
export type { MembershipDocument } from './memberships';
export type { UserDocument } from './users';
export type { WorkspaceDocument } from './workspaces';
export type { ClaimDocument } from './claims';
export type { FeedbackDocument } from './feedback';
export type { IntegrationDocument } from './integrations';
export type { InviteDocument } from './invites';
export type { MagicLinkDocument } from './magic-links';
export type { OAuthStateDocument } from './oauth-states';
export type { SessionDocument } from './sessions';

/** The auth service's repositories over its own database. */
export interface AuthStore {
  readonly users: UsersRepository;
  readonly workspaces: WorkspacesRepository;
  readonly memberships: MembershipsRepository;
  readonly keys: ApiKeysRepository;
  readonly sessions: SessionsRepository;
  readonly magicLinks: MagicLinksRepository;
  readonly claims: ClaimsRepository;
  readonly invites: InvitesRepository;
  readonly feedback: FeedbackRepository;
  readonly oauthStates: OAuthStatesRepository;
  readonly integrations: IntegrationsRepository;
}

/** Opens every repository, creating its indexes (idempotent, so every replica does it at start). */
export async function openAuthStore(store: DocumentStore, clock: Clock): Promise<AuthStore> {
  return {
    users: await UsersRepository.open(store, clock),
    workspaces: new WorkspacesRepository(store),
    memberships: await MembershipsRepository.open(store),
    keys: await ApiKeysRepository.open(store),
    sessions: await SessionsRepository.open(store),
    magicLinks: await MagicLinksRepository.open(store),
    claims: await ClaimsRepository.open(store),
    invites: await InvitesRepository.open(store),
    feedback: await FeedbackRepository.open(store),
    oauthStates: await OAuthStatesRepository.open(store),
    integrations: await IntegrationsRepository.open(store),
  };
}
