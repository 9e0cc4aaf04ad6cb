import { fetchPublic } from '@rde/platform';

/** How a Client ID Metadata Document is fetched (decision 0078). */
export interface MetadataDocumentLimits {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** Test setting: documents at http://127.0.0.1 are fetched too. */
  readonly allowLoopbackHttp: boolean;
}

/** A fetched document: its JSON and how long its `Cache-Control` lets it be reused. */
export interface FetchedDocument {
  readonly json: unknown;
  readonly maxAgeMs: number | undefined;
}

/**
 * Fetches a client's metadata document from the URL that is its client_id, through the platform's
 * guard for user-given URLs (public addresses only, no redirects, bounded). A problem is thrown as
 * an Error whose message completes "The client metadata document …".
 */
export async function fetchMetadataDocument(url: string, limits: MetadataDocumentLimits): Promise<FetchedDocument> {
  const response = await fetchPublic(url, { ...limits, accept: 'application/json' });
  if (response.status !== 200) throw new Error(`answered HTTP ${response.status}`);
  const type = String(response.headers['content-type'] ?? '');
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type))
    throw new Error(`is ${type || 'untyped'}, not application/json`);
  let json: unknown;
  try {
    json = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new Error('is not valid JSON');
  }
  return { json, maxAgeMs: maxAgeOf(String(response.headers['cache-control'] ?? '')) };
}

/** RFC 9111 §5.2.2: `no-store` and `no-cache` allow no reuse; `max-age` says how long; absent, undefined. */
function maxAgeOf(cacheControl: string): number | undefined {
  if (/\bno-(store|cache)\b/i.test(cacheControl)) return 0;
  const maxAge = /\bmax-age=(\d+)/i.exec(cacheControl);
  return maxAge ? Number(maxAge[1]) * 1000 : undefined;
}
