import type { Configuration } from 'openid-client' with { 'resolution-mode': 'import' };

export interface OpenIdSettings {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope: string;
}

/** What a state stands for at the provider: PKCE verifier, nonce and the state itself. */
export interface StateSecrets {
  readonly state: string;
  readonly verifier: string;
  readonly nonce: string;
}

export interface VerifiedIdentity {
  readonly subject: string;
  readonly email: string;
  readonly emailVerified: boolean;
}

/** The only plain-HTTP issuers accepted: a provider on this machine (development and tests). */
export const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/;

/**
 * An OpenID provider through `openid-client`: discovery (once, retried after a failure),
 * authorization URLs with PKCE (S256), state and nonce, and the code redemption that checks them
 * all and the ID token.
 */
export class OpenIdProvider {
  private configuration?: Promise<Configuration>;

  constructor(private readonly settings: OpenIdSettings) {}

  async authorizationUrl(redirectUri: string, secrets: StateSecrets): Promise<string> {
    const oidc = await import('openid-client');
    const config = await this.discovered();
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.settings.scope,
      state: secrets.state,
      nonce: secrets.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(secrets.verifier),
      code_challenge_method: 'S256',
    }).href;
  }

  /** Redeems the code of a callback URL (query as received); throws on any mismatch. */
  async redeem(callbackUrl: URL, secrets: StateSecrets): Promise<VerifiedIdentity> {
    const oidc = await import('openid-client');
    const config = await this.discovered();
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: secrets.verifier,
      expectedState: secrets.state,
      expectedNonce: secrets.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims()!;
    // Google puts the email in the ID token; a provider that follows the spec strictly serves
    // scope claims from the userinfo endpoint only, for the same subject.
    const claims = idToken.email ? idToken : await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
    return {
      subject: claims.sub,
      email: typeof claims.email === 'string' ? claims.email : '',
      emailVerified: claims.email_verified === true,
    };
  }

  private discovered(): Promise<Configuration> {
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      throw error;
    });
    return this.configuration;
  }

  private async discover(): Promise<Configuration> {
    const oidc = await import('openid-client');
    const { issuer, clientId, clientSecret } = this.settings;
    const insecure = LOOPBACK.test(issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined;
    return oidc.discovery(new URL(issuer), clientId, clientSecret, undefined, insecure);
  }
}
