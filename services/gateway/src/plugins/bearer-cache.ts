import { createHash } from 'node:crypto';
import type { Caller, Clock } from '@rde/platform';

/** Asks auth who a bearer is (with the `X-Workspace-Id` switch); rejects for a bad or revoked one. */
export type ResolveBearer = (token: string, switchTo: string) => Promise<Caller>;

interface Resolution {
  /** Settles to the caller; while pending, concurrent misses for the same key await it. */
  readonly caller: Promise<Caller>;
  /** When the auth call began: the answer is trusted for `ttlMs` from then, not from when it came. */
  readonly since: number;
}

/** Past this many tokens the cache starts over, so a flood of distinct bearers cannot grow it. */
const MAX_TOKENS = 10_000;

/**
 * Resolved bearers, kept per token hash and workspace switch for `ttlMs` after the auth call began,
 * so a revoked key stops working within `ttlMs`. Concurrent misses for the same key share one
 * in-flight auth call; a failed call is forgotten at once, never trusted.
 */
export class BearerCache {
  private readonly byToken = new Map<string, Map<string, Resolution>>();

  constructor(
    private readonly resolveBearer: ResolveBearer,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  resolve(token: string, switchTo: string): Promise<Caller> {
    if (this.ttlMs <= 0) return this.resolveBearer(token, switchTo);
    const key = digest(token);
    const now = this.clock.now();
    const known = this.byToken.get(key)?.get(switchTo);
    if (known && known.since + this.ttlMs > now) return known.caller;
    const resolution = { caller: this.resolveBearer(token, switchTo), since: now };
    this.remember(key, switchTo, resolution);
    resolution.caller.catch(() => this.drop(key, switchTo, resolution));
    return resolution.caller;
  }

  /** Drops every resolution of a bearer, pending ones included (after logout). */
  forget(token: string): void {
    this.byToken.delete(digest(token));
  }

  private remember(key: string, switchTo: string, resolution: Resolution): void {
    if (!this.byToken.has(key) && this.byToken.size >= MAX_TOKENS) this.byToken.clear();
    const resolutions = this.byToken.get(key) ?? new Map<string, Resolution>();
    resolutions.set(switchTo, resolution);
    this.byToken.set(key, resolutions);
  }

  /** Removes a failed resolution, unless a newer one already replaced it. */
  private drop(key: string, switchTo: string, resolution: Resolution): void {
    const resolutions = this.byToken.get(key);
    if (resolutions?.get(switchTo) !== resolution) return;
    resolutions.delete(switchTo);
    if (resolutions.size === 0) this.byToken.delete(key);
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
