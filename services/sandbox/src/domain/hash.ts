/**
 * Integer hashing and a per-record PRNG. Everything the universe holds is computed from
 * (seed, stream, id) with 32-bit integer arithmetic only, so the same seed gives the same record
 * in any process on any machine, and no record depends on another having been generated first.
 */

/** murmur3's finalizer: a cheap avalanche of 32 bits. */
export function mix32(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combines two 32-bit values into one hash, order-sensitive. */
export function hash2(a: number, b: number): number {
  return mix32(Math.imul(a ^ 0x9e3779b9, 0x7feb352d) + mix32(b));
}

/** FNV-1a over a string's UTF-16 code units, then mixed: seeds, stream names, email addresses. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** A value in [0, 1) from a 32-bit hash. */
export function unit(hash: number): number {
  return hash / 4294967296;
}

/** mulberry32 started from one hash: the stream of draws for one record. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** `count` distinct items, in draw order (a partial Fisher–Yates shuffle). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = items.slice();
    const n = Math.min(count, pool.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (pool.length - i));
      const picked = pool[j]!;
      pool[j] = pool[i]!;
      pool[i] = picked;
    }
    pool.length = n;
    return pool;
  }
}
