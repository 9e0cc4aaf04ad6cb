/** The key-value port: caches, leases and locks, rate-limit counters, replay keys with TTL. */
export interface KeyValue {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options?: { ttlMs?: number }): Promise<void>;
  /** Sets only when absent (a lock or lease, a replay key); true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Increments a counter; the TTL applies when this call created it. Returns the new value. */
  increment(key: string, ttlMs?: number): Promise<number>;
  delete(key: string): Promise<boolean>;
  /** Remaining time to live in ms; null when the key has no expiry or does not exist. */
  ttl(key: string): Promise<number | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
