import { gunzipSync, gzipSync } from 'node:zlib';
import type { KeyValue } from '@rde/platform';

/** A response as the client first received it. */
export interface KeptResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** What a claim found: the key is now this request's, another request holds it, or it has an answer. */
export type Claim =
  | { readonly state: 'claimed' }
  | { readonly state: 'running'; readonly fingerprint: string; readonly retryAfterMs: number }
  | { readonly state: 'done'; readonly fingerprint: string; readonly response?: KeptResponse };

/** The stored forms: an in-flight marker (owner + lease) or the first response. */
type Stored =
  | { s: 'running'; f: string; o: string }
  | { s: 'done'; f: string; status: number; headers: Record<string, string>; body?: string; gz?: boolean };

export interface RecordLimits {
  /** How long a first response is replayed. */
  readonly retentionMs: number;
  /** How long an in-flight marker outlives its last renewal: a dead gateway's marker lapses after this. */
  readonly leaseMs: number;
  /** The largest stored body (after compression); a larger answer keeps only its fingerprint. */
  readonly maxBodyBytes: number;
}

/** Bodies above this are gzipped: paid answers are JSON, which shrinks several times over. */
const COMPRESS_ABOVE_BYTES = 1024;

/**
 * The idempotency records, one per workspace and key, in the gateway's key-value namespace (Redis in
 * production, shared by every replica; in memory in the all-in-one). Claiming is one SET NX.
 */
export class IdempotencyRecordsRepository {
  constructor(
    private readonly keyValue: KeyValue,
    private readonly limits: RecordLimits,
  ) {}

  async claim(key: string, fingerprint: string, owner: string): Promise<Claim> {
    const marker = markerOf(fingerprint, owner);
    // A record that expires between the SET NX and the GET is claimed on the second pass.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await this.keyValue.setIfAbsent(key, marker, this.limits.leaseMs)) return { state: 'claimed' };
      const found = await this.keyValue.get(key);
      if (found !== null) return this.claimOf(key, JSON.parse(found) as Stored);
    }
    return { state: 'running', fingerprint, retryAfterMs: this.limits.leaseMs };
  }

  /**
   * Extends the owner's lease while its request runs. A lease that lapsed (a stalled gateway) and was
   * claimed by another request stays the other's.
   */
  async renew(key: string, fingerprint: string, owner: string): Promise<void> {
    const marker = markerOf(fingerprint, owner);
    await this.keyValue.setIfAbsentOrEqual(key, marker, marker, this.limits.leaseMs);
  }

  /**
   * Keeps the first response for the retention window (its body compressed, or left out when too large),
   * unless the owner's lease lapsed and another request holds the key now: that one's answer is kept.
   */
  async keep(key: string, fingerprint: string, owner: string, response: KeptResponse): Promise<void> {
    const compressed = response.body.length > COMPRESS_ABOVE_BYTES;
    const body = compressed ? gzipSync(response.body) : response.body;
    const stored: Stored = { s: 'done', f: fingerprint, status: response.status, headers: { ...response.headers } };
    if (body.length <= this.limits.maxBodyBytes)
      Object.assign(stored, { body: body.toString('base64'), gz: compressed });
    await this.keyValue.setIfAbsentOrEqual(
      key,
      markerOf(fingerprint, owner),
      JSON.stringify(stored),
      this.limits.retentionMs,
    );
  }

  /** Frees the owner's key (a refused request), so a corrected retry runs; another's claim stays. */
  async release(key: string, fingerprint: string, owner: string): Promise<void> {
    await this.keyValue.deleteIfEqual(key, markerOf(fingerprint, owner));
  }

  private async claimOf(key: string, stored: Stored): Promise<Claim> {
    if (stored.s === 'running') {
      const retryAfterMs = (await this.keyValue.ttl(key)) ?? this.limits.leaseMs;
      return { state: 'running', fingerprint: stored.f, retryAfterMs };
    }
    if (stored.body === undefined) return { state: 'done', fingerprint: stored.f };
    const bytes = Buffer.from(stored.body, 'base64');
    const body = stored.gz ? gunzipSync(bytes) : bytes;
    return { state: 'done', fingerprint: stored.f, response: { status: stored.status, headers: stored.headers, body } };
  }
}

function markerOf(fingerprint: string, owner: string): string {
  return JSON.stringify({ s: 'running', f: fingerprint, o: owner } satisfies Stored);
}
