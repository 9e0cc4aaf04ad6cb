import { DocumentRepository, type DocumentStore } from '@rde/platform';

/** A dynamically registered public client (RFC 7591): it authenticates with nothing but its id. */
export type OAuthClientDocument = {
  _id: string;
  client_name: string;
  client_uri: string;
  redirect_uris: string[];
  grant_types: string[];
  scope: string;
  created_at_ms: number;
};

export class OAuthClients extends DocumentRepository<OAuthClientDocument> {
  static open(store: DocumentStore): OAuthClients {
    return new OAuthClients(store.collection<OAuthClientDocument>('oauth_clients'));
  }

  byId(clientId: string): Promise<OAuthClientDocument | null> {
    return clientId ? this.collection.findOne({ _id: clientId }) : Promise.resolve(null);
  }
}
