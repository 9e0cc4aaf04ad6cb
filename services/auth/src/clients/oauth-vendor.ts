import type { Configuration } from 'openid-client' with { 'resolution-mode': 'import' };
import { LOOPBACK, type StateSecrets } from './openid';

/** A CRM/ATS vendor's OAuth 2.0 server, declared as data (RDE_INTEGRATIONS). */
export interface VendorOAuth {
  readonly issuer: string;
  readonly authorization_endpoint: string;
  readonly token_endpoint: string;
  readonly scope: string;
  /** The service-owned ("managed") app, when there is one. */
  readonly client_id?: string;
  readonly client_secret?: string;
}

export interface OAuthApp {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** Authorization-code flow with PKCE against a vendor, through `openid-client`. */
export class VendorOAuthClient {
  constructor(private readonly vendor: VendorOAuth) {}

  async authorizationUrl(app: OAuthApp, redirectUri: string, secrets: StateSecrets): Promise<string> {
    const oidc = await import('openid-client');
    return oidc.buildAuthorizationUrl(await this.configuration(app), {
      redirect_uri: redirectUri,
      scope: this.vendor.scope,
      state: secrets.state,
      code_challenge: await oidc.calculatePKCECodeChallenge(secrets.verifier),
      code_challenge_method: 'S256',
    }).href;
  }

  /** Redeems the callback's code; the token response as JSON, to be sealed. */
  async redeem(app: OAuthApp, callbackUrl: URL, secrets: StateSecrets): Promise<string> {
    const oidc = await import('openid-client');
    const tokens = await oidc.authorizationCodeGrant(await this.configuration(app), callbackUrl, {
      pkceCodeVerifier: secrets.verifier,
      expectedState: secrets.state,
    });
    const { access_token, refresh_token, token_type, expires_in, scope } = tokens;
    return JSON.stringify({ access_token, refresh_token, token_type, expires_in, scope });
  }

  private async configuration(app: OAuthApp): Promise<Configuration> {
    const oidc = await import('openid-client');
    const { issuer, authorization_endpoint, token_endpoint } = this.vendor;
    const config = new oidc.Configuration(
      { issuer, authorization_endpoint, token_endpoint },
      app.clientId,
      app.clientSecret,
    );
    if (LOOPBACK.test(issuer)) oidc.allowInsecureRequests(config);
    return config;
  }
}
