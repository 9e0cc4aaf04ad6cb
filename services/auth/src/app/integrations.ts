import { errors, type Caller, type Clock } from '@rde/platform';
import type { OAuthApp, VendorOAuth, VendorOAuthClient } from '../clients/oauth-vendor';
import { hasManagedApp, hasOwnApp, standingOf, type IntegrationStanding } from '../domain/integrations';
import type { Keyring } from '../domain/sealing';
import { hashSecret, mintSecret, sameDigest } from '../domain/secrets';
import type { AuthStore } from '../store';
import type { OAuthStateSecrets } from './oauth-state-secrets';

/** How long the browser may stay at the vendor's consent page. */
const STATE_TTL_MS = 10 * 60_000;

export interface Vendor {
  readonly declaration: VendorOAuth;
  readonly client: VendorOAuthClient;
}

/** CRM/ATS connect: a workspace's own OAuth app, consent, and tokens sealed at rest. */
export class Integrations {
  constructor(
    private readonly store: AuthStore,
    private readonly clock: Clock,
    private readonly keyring: Keyring,
    private readonly stateSecrets: OAuthStateSecrets,
    private readonly vendors: ReadonlyMap<string, Vendor>,
  ) {}

  /** Saves the workspace's own app; any prior connection, live refresh token included, is dropped. */
  async saveApp(caller: Caller, provider: string, app: OAuthApp): Promise<void> {
    this.vendorOf(provider);
    const sealed = this.keyring.seal(app.clientSecret);
    await this.store.integrations.saveApp(caller.workspaceId, provider, app.clientId, sealed, this.clock.now());
  }

  async start(caller: Caller, provider: string, redirectUri: string): Promise<{ url: string; state: string }> {
    const vendor = this.vendorOf(provider);
    const app = await this.appOf(caller.workspaceId, provider, vendor);
    const state = mintSecret('rde_st_');
    const now = this.clock.now();
    await this.store.oauthStates.insert({
      _id: hashSecret(state),
      purpose: 'integration',
      redirect_uri: redirectUri,
      claim_hash: null,
      next: null,
      invite_code_hash: null,
      workspace_id: caller.workspaceId,
      provider,
      created_at_ms: now,
      expires_at_ms: now + STATE_TTL_MS,
      used_at_ms: null,
    });
    return { url: await vendor.client.authorizationUrl(app, redirectUri, this.stateSecrets.of(state)), state };
  }

  /** Needs the state row and the matching cookie; any failure is one 400 (the gateway redirects). */
  async finish(provider: string, callbackUrl: string, cookieState: string): Promise<void> {
    const vendor = this.vendorOf(provider);
    const received = new URL(callbackUrl);
    const state = received.searchParams.get('state') ?? '';
    if (!state || !cookieState || !sameDigest(hashSecret(state), hashSecret(cookieState))) throw failed();
    const row = await this.store.oauthStates.spend(hashSecret(state), 'integration', this.clock.now());
    if (!row || row.provider !== provider || received.searchParams.has('error')) throw failed();
    const app = await this.appOf(row.workspace_id!, provider, vendor);
    const current = new URL(row.redirect_uri);
    current.search = received.search;
    const tokens = await vendor.client.redeem(app, current, this.stateSecrets.of(state)).catch(() => {
      throw failed();
    });
    await this.store.integrations.saveTokens(row.workspace_id!, provider, this.keyring.seal(tokens), this.clock.now());
  }

  /** Every provider with OAuth config, by name, as the caller's workspace stands with it. */
  async list(caller: Caller): Promise<IntegrationStanding[]> {
    const saved = await this.store.integrations.ofWorkspace(caller.workspaceId);
    const byProvider = new Map(saved.map((connection) => [connection.provider, connection]));
    return [...this.vendors]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([provider, vendor]) => standingOf(provider, hasManagedApp(vendor.declaration), byProvider.get(provider)));
  }

  /** Drops the tokens (the workspace's own app stays); whether it was connected. */
  async disconnect(caller: Caller, provider: string): Promise<boolean> {
    this.vendorOf(provider);
    return this.store.integrations.dropTokens(caller.workspaceId, provider, this.clock.now());
  }

  private vendorOf(provider: string): Vendor {
    const vendor = this.vendors.get(provider);
    if (!vendor) throw errors.notFound(`${provider} has no OAuth connect`);
    return vendor;
  }

  /** The workspace's own app, else the service's managed one; 400 when there is neither. */
  private async appOf(workspaceId: string, provider: string, vendor: Vendor): Promise<OAuthApp> {
    const saved = await this.store.integrations.of(workspaceId, provider);
    if (hasOwnApp(saved)) {
      return { clientId: saved.app_client_id, clientSecret: this.keyring.open(saved.app_client_secret_sealed) };
    }
    const managed = vendor.declaration;
    if (hasManagedApp(managed)) return { clientId: managed.client_id, clientSecret: managed.client_secret };
    throw errors.badRequest({
      detail: `There is no ${provider} app to connect with: save your OAuth app credentials first`,
    });
  }
}

function failed() {
  return errors.badRequest({ detail: { reason: 'connect', message: 'Connecting the integration failed' } });
}
