import { errors, type Caller, type Clock } from '@rde/platform';
import type { mcpOAuth } from '@rde/proto';
import { hashOf, LIFETIMES, mintSecret, oauthError, SCOPE, verifierMatches } from '../../domain/oauth';
import type { GrantDocument, IssuedHashes, OAuthStore } from '../../store';
import type { OAuthClients } from './clients';
import type { Membership } from './membership';

type TokenRequest = mcpOAuth.ExchangeTokenRequest;

/** The token endpoint (RFC 6749 §4.1.3, §6), revocation (RFC 7009) and the resource server's check. */
export class Tokens {
  constructor(
    private readonly store: OAuthStore,
    private readonly clients: OAuthClients,
    private readonly clock: Clock,
    private readonly membership: Membership,
    /** How long an access token still works after a refresh replaced it (decision 0056). */
    private readonly refreshGraceMs: number,
  ) {}

  async exchange(request: TokenRequest): Promise<Record<string, unknown>> {
    // RFC 6749 §5.2: 400, as the client sent no HTTP authentication (the gateway answers 401 when it did).
    if (!request.clientId) throw oauthError(400, 'invalid_client', 'client_id is required');
    const client = await this.clients.byId(request.clientId);
    if (!request.grantType) throw oauthError(400, 'invalid_request', 'grant_type is required');
    if (request.grantType !== 'authorization_code' && request.grantType !== 'refresh_token') {
      throw oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    }
    // RFC 7591 §2: a client uses only the grant types it registered.
    if (!client.grant_types.includes(request.grantType)) {
      throw oauthError(400, 'unauthorized_client', `the client did not register the ${request.grantType} grant`);
    }
    // RFC 6749 §6: a refresh may narrow the scope, never widen it; there is only one.
    if (request.scope.split(' ').some((scope) => scope && scope !== SCOPE)) {
      throw oauthError(400, 'invalid_scope', `the only scope is ${SCOPE}`);
    }
    return request.grantType === 'authorization_code' ? this.redeem(request) : this.refresh(request);
  }

  /** RFC 7009: the grant behind any of its tokens is revoked; an unknown token (or another client's) changes nothing. */
  async revoke(request: mcpOAuth.RevokeTokenRequest): Promise<void> {
    if (!request.token) throw oauthError(400, 'invalid_request', 'token is required');
    const hash = hashOf(request.token);
    // RFC 7009 §2.1: the client identifies itself (a public client by its client_id) and revokes only its own.
    if (!request.clientId) throw oauthError(400, 'invalid_client', 'client_id is required');
    const grant =
      (await this.store.grants.byHash('access_hash', hash)) ??
      (await this.store.grants.byHash('previous_access_hash', hash)) ??
      (await this.store.grants.byHash('refresh_hash', hash));
    if (grant && request.clientId === grant.client_id) await this.store.grants.revoke(grant._id);
  }

  /**
   * The caller a live access token acts for, if it was minted for this resource (RFC 8707) and its
   * user still belongs to the grant's workspace (with the role they have there now).
   */
  async resolve(token: string, resource: string): Promise<Caller> {
    const hash = hashOf(token);
    const current = await this.store.grants.byHash('access_hash', hash);
    // An access token a refresh replaced still serves the calls in flight with it, for the grace.
    const grant = current ?? (await this.store.grants.byHash('previous_access_hash', hash));
    const expiresAtMs = current ? current.access_expires_at_ms : grant?.previous_access_expires_at_ms;
    const live = grant && !grant.revoked && (expiresAtMs ?? 0) > this.clock.now();
    if (!live || grant.resource !== resource)
      throw errors.unauthenticated('The access token is invalid, revoked or expired');
    const role = await this.membership.recent(grant.user_id, grant.workspace_id);
    if (role === undefined) {
      await this.store.grants.revoke(grant._id);
      throw errors.unauthenticated('The access token is invalid, revoked or expired');
    }
    return {
      workspaceId: grant.workspace_id,
      userId: grant.user_id,
      role,
      keyId: '',
      sessionId: '',
      requestId: '',
    };
  }

  private async redeem(request: TokenRequest): Promise<Record<string, unknown>> {
    if (!request.code) throw oauthError(400, 'invalid_request', 'code is required');
    if (!request.codeVerifier) throw oauthError(400, 'invalid_request', 'code_verifier is required (PKCE)');
    const grant = await this.store.grants.byHash('code_hash', hashOf(request.code));
    if (!grant || grant.client_id !== request.clientId) throw invalidGrant('The code is unknown');
    if (grant.code_used) {
      // RFC 6749 §4.1.2: a code presented twice was likely stolen: what it issued is revoked.
      await this.store.grants.revoke(grant._id);
      throw invalidGrant('The code was already used; the tokens it issued are revoked');
    }
    if (grant.code_expires_at_ms <= this.clock.now()) throw invalidGrant('The code has expired');
    if ((grant.redirect_uri_sent || request.redirectUri) && request.redirectUri !== grant.redirect_uri) {
      throw invalidGrant('redirect_uri does not match the authorization request');
    }
    if (!verifierMatches(request.codeVerifier, grant.code_challenge))
      throw invalidGrant('code_verifier does not match');
    checkResource(request, grant);
    await this.checkMember(grant);
    const { issued, response } = this.issue(grant);
    if (!(await this.store.grants.redeemCode(grant._id, issued))) {
      await this.store.grants.revoke(grant._id);
      throw invalidGrant('The code was already used; the tokens it issued are revoked');
    }
    return response;
  }

  /** Rotation: each refresh token works once; presenting a replaced one revokes the grant. */
  private async refresh(request: TokenRequest): Promise<Record<string, unknown>> {
    if (!request.refreshToken) throw oauthError(400, 'invalid_request', 'refresh_token is required');
    const hash = hashOf(request.refreshToken);
    const grant = await this.store.grants.byHash('refresh_hash', hash);
    if (!grant) {
      const replayed = await this.store.grants.byHash('previous_refresh_hash', hash);
      if (replayed && replayed.client_id === request.clientId) await this.store.grants.revoke(replayed._id);
      throw invalidGrant('The refresh token is unknown, used or revoked');
    }
    if (grant.client_id !== request.clientId || grant.revoked)
      throw invalidGrant('The refresh token is unknown, used or revoked');
    if (grant.refresh_expires_at_ms <= this.clock.now()) throw invalidGrant('The refresh token has expired');
    checkResource(request, grant);
    await this.checkMember(grant);
    const { issued, response } = this.issue(grant);
    const retired = {
      previous_access_hash: grant.access_hash,
      previous_access_expires_at_ms: Math.min(grant.access_expires_at_ms, this.clock.now() + this.refreshGraceMs),
    };
    if (!(await this.store.grants.rotate(grant._id, hash, issued, retired))) {
      throw invalidGrant('The refresh token is unknown, used or revoked');
    }
    return response;
  }

  /** Tokens are issued only to a user who still belongs to the grant's workspace; else the grant ends. */
  private async checkMember(grant: GrantDocument): Promise<void> {
    if ((await this.membership.current(grant.user_id, grant.workspace_id)) !== undefined) return;
    await this.store.grants.revoke(grant._id);
    throw invalidGrant('The user is no longer a member of the workspace this grant acts for; the grant is revoked');
  }

  /** A new access and refresh token pair: the hashes to store and the RFC 6749 §5.1 response. */
  private issue(grant: GrantDocument): { issued: IssuedHashes; response: Record<string, unknown> } {
    const access = mintSecret('access');
    const refresh = mintSecret('refresh');
    const now = this.clock.now();
    return {
      issued: {
        access_hash: hashOf(access),
        access_expires_at_ms: now + LIFETIMES.accessMs,
        refresh_hash: hashOf(refresh),
        refresh_expires_at_ms: now + LIFETIMES.refreshMs,
      },
      response: {
        access_token: access,
        token_type: 'Bearer',
        expires_in: LIFETIMES.accessMs / 1000,
        refresh_token: refresh,
        scope: grant.scope,
      },
    };
  }
}

/** RFC 8707: a token request may only name the resource the grant was approved for. */
function checkResource(request: TokenRequest, grant: GrantDocument): void {
  if (request.resource && request.resource !== grant.resource)
    throw oauthError(400, 'invalid_target', `the grant is for ${grant.resource}`);
}

function invalidGrant(description: string) {
  return oauthError(400, 'invalid_grant', description);
}
