import { errors, type Clock } from '@rde/platform';
import { hashSecret, mintSecret } from '../domain/secrets';
import { allowedNext } from '../domain/sign-in';
import type { OpenIdProvider } from '../clients/openid';
import type { AuthStore } from '../store';
import type { CompleteSignIn, SignedIn } from './complete-sign-in';
import type { SignInRequest } from './magic-links';
import type { OAuthStateSecrets } from './oauth-state-secrets';

/** How long the browser may stay at the identity provider. */
const STATE_TTL_MS = 10 * 60_000;

/**
 * Sign-in through the external identity provider ("Google"). The state is single use and bound
 * to the waiting claim, `next` and invite; the PKCE verifier and nonce derive from it.
 */
export class ExternalSignIn {
  constructor(
    private readonly store: AuthStore,
    private readonly complete: CompleteSignIn,
    private readonly clock: Clock,
    private readonly stateSecrets: OAuthStateSecrets,
    /** undefined when no identity provider is configured: both steps are 404. */
    private readonly provider: OpenIdProvider | undefined,
    /** The registered callback URL; by default the one the browser reached this deployment at. */
    private readonly redirectOverride?: string,
  ) {}

  async start(request: Omit<SignInRequest, 'email'>, reachedAt: string): Promise<string> {
    const provider = this.configured();
    const state = mintSecret('rde_st_');
    const redirectUri = this.redirectOverride ?? reachedAt;
    const now = this.clock.now();
    await this.store.oauthStates.insert({
      _id: hashSecret(state),
      purpose: 'sign_in',
      redirect_uri: redirectUri,
      claim_hash: request.cliToken ? hashSecret(request.cliToken) : null,
      next: allowedNext(request.next) ?? null,
      invite_code_hash: request.inviteCode ? hashSecret(request.inviteCode) : null,
      workspace_id: null,
      provider: null,
      created_at_ms: now,
      expires_at_ms: now + STATE_TTL_MS,
      used_at_ms: null,
    });
    return provider.authorizationUrl(redirectUri, this.stateSecrets.of(state));
  }

  /** Any failure (unknown or replayed state, provider error, unverified email) is one 400. */
  async finish(callbackUrl: string): Promise<SignedIn> {
    const provider = this.configured();
    const received = new URL(callbackUrl);
    const state = received.searchParams.get('state') ?? '';
    const row = state ? await this.store.oauthStates.spend(hashSecret(state), 'sign_in', this.clock.now()) : null;
    if (!row || received.searchParams.has('error')) throw failed();
    // The code was issued for the redirect URI of the start step: the token request names that one.
    const current = new URL(row.redirect_uri);
    current.search = received.search;
    const identity = await provider.redeem(current, this.stateSecrets.of(state)).catch(() => {
      throw failed();
    });
    if (!identity.email || !identity.emailVerified) throw failed();
    const user = await this.store.users.ensure(identity.email.toLowerCase());
    return this.complete.run(user, { claimHash: row.claim_hash, next: row.next, inviteCodeHash: row.invite_code_hash });
  }

  private configured(): OpenIdProvider {
    if (!this.provider) throw errors.notFound('External sign-in is not configured');
    return this.provider;
  }
}

function failed() {
  return errors.badRequest({ detail: { reason: 'connect', message: 'Signing in with the identity provider failed' } });
}
