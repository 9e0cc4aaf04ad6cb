/** The key-value port: caches, leases and locks, rate-limit counters, replay keys with TTL. */
export interface KeyValue {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options?: { ttlMs?: number }): Promise<void>;
  /** Sets only when absent (a lock or lease, a replay key); true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Increments a counter; the TTL applies when this call created it. Returns the new value. */
  increment(key: string, ttlMs?: number): Promise<number>;
  /** Sets when the key is absent or still holds `current`: an owner renews or ends its own lease, never another's. */
  setIfAbsentOrEqual(key: string, current: string, value: string, ttlMs: number): Promise<boolean>;
  delete(key: string): Promise<boolean>;
  /** Deletes only while the key holds `current`: an owner never frees a lease another has taken since. */
  deleteIfEqual(key: string, current: string): Promise<boolean>;
  /** Remaining time to live in ms; null when the key has no expiry or does not exist. */
  ttl(key: string): Promise<number | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
