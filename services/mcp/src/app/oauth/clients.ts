import type { Clock } from '@rde/platform';
import { fetchMetadataDocument, type MetadataDocumentLimits } from '../../clients/metadata-documents';
import { documentClientOf, isMetadataDocumentUrl } from '../../domain/client-metadata';
import { oauthError, SCOPE } from '../../domain/oauth';
import type { OAuthClientDocument, OAuthStore } from '../../store';

/** A document without caching headers is reused this long; none longer than a day (decision 0078). */
const DEFAULT_CACHE_MS = 5 * 60_000;
const MAX_CACHE_MS = 24 * 60 * 60_000;
/** A bound on the cache, so a flood of distinct client URLs cannot grow it without limit. */
const MAX_ENTRIES = 1_000;

/**
 * Every client the authorization server knows: registered ones (RFC 7591) from the store, and
 * clients whose client_id is the https URL of their metadata document (Client ID Metadata
 * Documents), fetched and kept per the document's caching headers. A client that cannot be
 * known is `invalid_client`, shown to the user, never sent to an unverified redirect URI.
 */
export class OAuthClients {
  private readonly documents = new Map<string, { client: OAuthClientDocument; until: number }>();

  constructor(
    private readonly store: OAuthStore,
    private readonly clock: Clock,
    private readonly limits: MetadataDocumentLimits,
  ) {}

  async byId(clientId: string): Promise<OAuthClientDocument> {
    if (isMetadataDocumentUrl(clientId, this.limits.allowLoopbackHttp)) return this.described(clientId);
    const client = await this.store.clients.byId(clientId);
    if (!client) throw oauthError(400, 'invalid_client', 'Unknown or missing client_id');
    return client;
  }

  private async described(url: string): Promise<OAuthClientDocument> {
    const now = this.clock.now();
    const cached = this.documents.get(url);
    if (cached && cached.until > now) return cached.client;
    let client: OAuthClientDocument;
    let maxAgeMs: number | undefined;
    try {
      const fetched = await fetchMetadataDocument(url, this.limits);
      client = { _id: url, ...documentClientOf(url, fetched.json), scope: SCOPE, created_at_ms: now };
      maxAgeMs = fetched.maxAgeMs;
    } catch (error) {
      const reason = `The client metadata document at ${url} ${(error as Error).message}`;
      throw oauthError(400, 'invalid_client', reason);
    }
    const keepMs = Math.min(maxAgeMs ?? DEFAULT_CACHE_MS, MAX_CACHE_MS);
    if (keepMs > 0) {
      if (this.documents.size >= MAX_ENTRIES) this.documents.clear();
      this.documents.set(url, { client, until: now + keepMs });
    }
    return client;
  }
}
