import { systemClock, type Clock } from '../../clock';
import type { KeyValue } from '../../ports/key-value';

interface Entry {
  value: string;
  /** epoch ms on the injected clock; absent = no expiry */
  expiresAt?: number;
}

/** The embedded key-value store. Expiry reads the injected clock, so tests move time by hand. */
export class InMemoryKeyValue implements KeyValue {
  private readonly entries = new Map<string, Entry>();
  /** map size after the last sweep of expired entries: keys nobody reads again must not pile up */
  private sizeAtLastSweep = 0;

  constructor(private readonly clock: Clock = systemClock) {}

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, options?: { ttlMs?: number }): Promise<void> {
    this.write(key, { value, expiresAt: this.expiry(options?.ttlMs) });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.live(key)) return false;
    this.write(key, { value, expiresAt: this.expiry(ttlMs) });
    return true;
  }

  async increment(key: string, ttlMs?: number): Promise<number> {
    const current = this.live(key);
    const next = (current ? Number(current.value) : 0) + 1;
    if (!Number.isSafeInteger(next)) throw new Error(`value of ${key} is not an integer`);
    this.write(key, { value: String(next), expiresAt: current ? current.expiresAt : this.expiry(ttlMs) });
    return next;
  }

  async setIfAbsentOrEqual(key: string, current: string, value: string, ttlMs: number): Promise<boolean> {
    const found = this.live(key);
    if (found && found.value !== current) return false;
    this.write(key, { value, expiresAt: this.expiry(ttlMs) });
    return true;
  }

  async delete(key: string): Promise<boolean> {
    return this.live(key) !== undefined && this.entries.delete(key);
  }

  async deleteIfEqual(key: string, current: string): Promise<boolean> {
    return this.live(key)?.value === current && this.entries.delete(key);
  }

  async ttl(key: string): Promise<number | null> {
    const expiresAt = this.live(key)?.expiresAt;
    return expiresAt === undefined ? null : expiresAt - this.clock.now();
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}

  private expiry(ttlMs: number | undefined): number | undefined {
    return ttlMs ? this.clock.now() + ttlMs : undefined;
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && this.expired(entry)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private expired(entry: Entry): boolean {
    return entry.expiresAt !== undefined && entry.expiresAt <= this.clock.now();
  }

  private write(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    if (this.entries.size < 2 * this.sizeAtLastSweep + 1_000) return;
    for (const [stored, value] of this.entries) if (this.expired(value)) this.entries.delete(stored);
    this.sizeAtLastSweep = this.entries.size;
  }
}
