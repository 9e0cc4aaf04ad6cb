import { DocumentRepository, indexedCollection, type DocumentStore } from '@rde/platform';

/** A workspace's connection to one CRM/ATS provider. Secrets are sealed (AES-256-GCM), never plain. */
export type IntegrationDocument = {
  /** `<workspace id>/<provider>`: one connection per workspace and provider. */
  _id: string;
  workspace_id: string;
  provider: string;
  /** The workspace's own OAuth app; null = the service's managed app. */
  app_client_id: string | null;
  app_client_secret_sealed: string | null;
  /** The token response (access and refresh tokens), sealed; null until connected. */
  tokens_sealed: string | null;
  connected_at_ms: number | null;
  updated_at_ms: number;
};

export class IntegrationsRepository extends DocumentRepository<IntegrationDocument> {
  static async open(store: DocumentStore): Promise<IntegrationsRepository> {
    return new IntegrationsRepository(
      await indexedCollection<IntegrationDocument>(store, 'integrations', [
        { keys: { workspace_id: 1 }, name: 'workspace' },
      ]),
    );
  }

  of(workspaceId: string, provider: string): Promise<IntegrationDocument | null> {
    return this.collection.findOne({ _id: `${workspaceId}/${provider}` });
  }

  /** Every provider the workspace saved an app for or connected. */
  ofWorkspace(workspaceId: string): Promise<IntegrationDocument[]> {
    return this.collection.find({ workspace_id: workspaceId });
  }

  /** Drops the connection's tokens, keeping the workspace's app; whether there were tokens to drop. */
  async dropTokens(workspaceId: string, provider: string, now: number): Promise<boolean> {
    const { matched } = await this.collection.updateOne(
      { _id: `${workspaceId}/${provider}`, tokens_sealed: { $ne: null } },
      { $set: { tokens_sealed: null, connected_at_ms: null, updated_at_ms: now } },
    );
    return matched > 0;
  }

  /** Saves the workspace's app and drops any prior connection (tokens included). */
  async saveApp(
    workspaceId: string,
    provider: string,
    clientId: string,
    sealedSecret: string,
    now: number,
  ): Promise<void> {
    await this.collection.updateOne(
      { _id: `${workspaceId}/${provider}` },
      {
        $set: {
          workspace_id: workspaceId,
          provider,
          app_client_id: clientId,
          app_client_secret_sealed: sealedSecret,
          tokens_sealed: null,
          connected_at_ms: null,
          updated_at_ms: now,
        },
      },
      { upsert: true },
    );
  }

  async saveTokens(workspaceId: string, provider: string, sealedTokens: string, now: number): Promise<void> {
    await this.collection.updateOne(
      { _id: `${workspaceId}/${provider}` },
      {
        $set: {
          workspace_id: workspaceId,
          provider,
          tokens_sealed: sealedTokens,
          connected_at_ms: now,
          updated_at_ms: now,
        },
        $setOnInsert: { app_client_id: null, app_client_secret_sealed: null },
      },
      { upsert: true },
    );
  }
}
