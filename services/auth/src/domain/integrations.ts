/** Which OAuth app a connect uses: the workspace's own once saved, else the service's managed one. */
export type ConnectApp = 'workspace' | 'managed' | 'none';

/** What a workspace stored for one provider (its app, its tokens), as far as its standing goes. */
export interface SavedConnection {
  readonly app_client_id: string | null;
  readonly app_client_secret_sealed: string | null;
  readonly tokens_sealed: string | null;
  readonly connected_at_ms: number | null;
}

/** A workspace's standing with one provider: the app a connect would use, and when it connected. */
export interface IntegrationStanding {
  readonly provider: string;
  readonly app: ConnectApp;
  /** Null while not connected. */
  readonly connectedAtMs: number | null;
}

type OwnApp = SavedConnection & { app_client_id: string; app_client_secret_sealed: string };
type ManagedApp = { client_id: string; client_secret: string };

export function hasOwnApp<T extends SavedConnection>(saved: T | null | undefined): saved is T & OwnApp {
  return Boolean(saved?.app_client_id && saved.app_client_secret_sealed);
}

export function hasManagedApp<T extends Partial<ManagedApp>>(declaration: T): declaration is T & ManagedApp {
  return Boolean(declaration.client_id && declaration.client_secret);
}

export function standingOf(provider: string, managed: boolean, saved?: SavedConnection): IntegrationStanding {
  const app: ConnectApp = hasOwnApp(saved) ? 'workspace' : managed ? 'managed' : 'none';
  const connectedAtMs = saved?.tokens_sealed ? saved.connected_at_ms : null;
  return { provider, app, connectedAtMs };
}
