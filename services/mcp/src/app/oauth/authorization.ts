import { randomBytes } from 'node:crypto';
import { errors, RdeError, type Caller, type Clock } from '@rde/platform';
import type { mcpOAuth } from '@rde/proto';
import type { AuthClient } from '../../clients';
import {
  hashOf,
  LIFETIMES,
  mintSecret,
  oauthError,
  redirectUriRegistered,
  redirectWith,
  S256_CHALLENGE,
  SCOPE,
} from '../../domain/oauth';
import type { OAuthClientDocument, OAuthStore } from '../../store';
import type { OAuthClients } from './clients';

type Parameters = mcpOAuth.AuthorizationParameters;
type Context = mcpOAuth.AuthorizationContext;

/** Where a response may be sent: the client and the redirect URI it registered. */
interface Target {
  readonly client: OAuthClientDocument;
  readonly redirectUri: string;
  readonly redirectUriSent: boolean;
}

/**
 * The authorization endpoint (RFC 6749 §4.1 with PKCE): the consent page's review and the
 * decision. The browser's identity is the `rde_session` cookie, resolved by auth.
 */
export class Authorization {
  constructor(
    private readonly store: OAuthStore,
    private readonly clients: OAuthClients,
    private readonly auth: AuthClient,
    private readonly clock: Clock,
  ) {}

  async review(parameters: Parameters, context: Context): Promise<mcpOAuth.ReviewAuthorizationResponse> {
    const target = await this.targetOf(parameters);
    const refused = refusalOf(parameters, context);
    if (refused)
      return { outcome: { $case: 'errorRedirectUrl', value: this.reply(target, parameters, context, refused) } };
    const caller = await this.signedIn(context.sessionToken, '');
    if (!caller) return { outcome: { $case: 'signInRequired', value: true } };
    const { user, workspaces } = await this.auth.listCallerWorkspaces({}, { caller });
    const choices = workspaces.map(({ workspace, role }) => ({ id: workspace!.id, name: workspace!.name, role }));
    const first = choices.filter((choice) => choice.id === caller.workspaceId);
    const consent = {
      clientName: target.client.client_name,
      clientId: target.client._id,
      redirectUri: target.redirectUri,
      userEmail: user?.email ?? '',
      workspaces: [...first, ...choices.filter((choice) => choice.id !== caller.workspaceId)],
      scope: SCOPE,
    };
    return { outcome: { $case: 'consent', value: consent } };
  }

  /** The consent decision: a code for the chosen workspace, or access_denied. No session: 401. */
  async decide(request: mcpOAuth.DecideAuthorizationRequest): Promise<string> {
    const { parameters, context } = { parameters: request.parameters!, context: request.context! };
    const target = await this.targetOf(parameters);
    const refused = refusalOf(parameters, context);
    if (refused) return this.reply(target, parameters, context, refused);
    const caller = await this.signedIn(context.sessionToken, request.workspaceId);
    if (!caller) throw errors.unauthenticated('Not signed in: sign in to RDE in this browser, then approve again');
    if (!request.approved) {
      return this.reply(target, parameters, context, ['access_denied', 'The user declined the authorization']);
    }
    const code = mintSecret('code');
    const now = this.clock.now();
    await this.store.grants.insert({
      _id: `mcp_grant_${randomBytes(16).toString('base64url')}`,
      client_id: target.client._id,
      user_id: caller.userId,
      workspace_id: caller.workspaceId,
      role: caller.role,
      resource: context.resource,
      scope: SCOPE,
      redirect_uri: target.redirectUri,
      redirect_uri_sent: target.redirectUriSent,
      code_hash: hashOf(code),
      code_challenge: parameters.codeChallenge,
      code_expires_at_ms: now + LIFETIMES.codeMs,
      code_used: false,
      access_hash: '',
      access_expires_at_ms: 0,
      refresh_hash: '',
      previous_refresh_hash: '',
      previous_access_hash: '',
      previous_access_expires_at_ms: 0,
      refresh_expires_at_ms: 0,
      revoked: false,
      created_at_ms: now,
    });
    return redirectWith(target.redirectUri, { code, state: parameters.state, iss: context.issuer });
  }

  /**
   * The client and its redirect URI are checked first: until both are known good, an error is
   * shown here and never sent to the URI (RFC 6749 §4.1.2.1).
   */
  private async targetOf(parameters: Parameters): Promise<Target> {
    const client = await this.clients.byId(parameters.clientId);
    if (parameters.redirectUri) {
      if (!redirectUriRegistered(parameters.redirectUri, client.redirect_uris)) {
        throw oauthError(400, 'invalid_request', 'redirect_uri is not registered for this client');
      }
      return { client, redirectUri: parameters.redirectUri, redirectUriSent: true };
    }
    if (client.redirect_uris.length !== 1) {
      throw oauthError(400, 'invalid_request', 'redirect_uri is required: the client registered several');
    }
    return { client, redirectUri: client.redirect_uris[0], redirectUriSent: false };
  }

  private reply(target: Target, parameters: Parameters, context: Context, [error, description]: [string, string]) {
    return redirectWith(target.redirectUri, {
      error,
      error_description: description,
      state: parameters.state,
      iss: context.issuer,
    });
  }

  /** The signed-in user behind the session cookie (acting for `workspaceId` when given), or none. */
  private async signedIn(sessionToken: string, workspaceId: string): Promise<Caller | undefined> {
    if (!sessionToken) return undefined;
    try {
      const { caller } = await this.auth.resolveBearer({ token: sessionToken, workspaceId });
      return caller?.userId ? caller : undefined;
    } catch (error) {
      if (error instanceof RdeError && error.httpStatus === 401) return undefined;
      throw error;
    }
  }
}

/** What is wrong with a request whose client and redirect URI are valid (RFC 6749 §4.1.2.1, RFC 7636, RFC 8707). */
function refusalOf(parameters: Parameters, context: Context): [string, string] | undefined {
  if (parameters.responseType !== 'code') return ['unsupported_response_type', 'response_type must be code'];
  if (!parameters.codeChallenge) return ['invalid_request', 'code_challenge is required (PKCE)'];
  if (parameters.codeChallengeMethod !== 'S256') return ['invalid_request', 'code_challenge_method must be S256'];
  if (!S256_CHALLENGE.test(parameters.codeChallenge)) {
    return ['invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier'];
  }
  if (parameters.resource && parameters.resource !== context.resource) {
    return ['invalid_target', `the only resource is ${context.resource}`];
  }
  if (parameters.scope.split(' ').some((scope) => scope && scope !== SCOPE)) {
    return ['invalid_scope', `the only scope is ${SCOPE}`];
  }
  return undefined;
}
