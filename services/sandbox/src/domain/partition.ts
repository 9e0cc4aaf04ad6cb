import { hash2, mix32 } from './hash';

/**
 * A keyed bijection over [0, size): a 4-round Feistel network on the smallest even number of bits
 * that covers `size`, with cycle walking for the values past it. Both directions are O(1), so a
 * derived index can go from a person to a slot and from a slot back to the person.
 */
export class Permutation {
  private readonly halfBits: number;
  private readonly halfMask: number;
  private readonly k0: number;
  private readonly k1: number;
  private readonly k2: number;
  private readonly k3: number;

  constructor(
    readonly size: number,
    key: number,
  ) {
    let bits = 2;
    while (2 ** bits < size) bits += 2;
    this.halfBits = bits / 2;
    this.halfMask = (1 << this.halfBits) - 1;
    [this.k0, this.k1, this.k2, this.k3] = [1, 2, 3, 4].map((round) => hash2(key, round)) as [
      number,
      number,
      number,
      number,
    ];
  }

  forward(value: number): number {
    let x = value;
    do x = this.encrypt(x);
    while (x >= this.size);
    return x;
  }

  inverse(value: number): number {
    let x = value;
    do x = this.decrypt(x);
    while (x >= this.size);
    return x;
  }

  // Rounds unrolled: this runs several times for every attribute of every person generated.
  private encrypt(x: number): number {
    const mask = this.halfMask;
    const l0 = x >>> this.halfBits;
    const r0 = x & mask;
    const r1 = l0 ^ (mix32(r0 ^ this.k0) & mask);
    const r2 = r0 ^ (mix32(r1 ^ this.k1) & mask);
    const r3 = r1 ^ (mix32(r2 ^ this.k2) & mask);
    const r4 = r2 ^ (mix32(r3 ^ this.k3) & mask);
    return r3 * (mask + 1) + r4;
  }

  private decrypt(x: number): number {
    const mask = this.halfMask;
    const r3 = x >>> this.halfBits;
    const r4 = x & mask;
    const r2 = r4 ^ (mix32(r3 ^ this.k3) & mask);
    const r1 = r3 ^ (mix32(r2 ^ this.k2) & mask);
    const r0 = r2 ^ (mix32(r1 ^ this.k1) & mask);
    const l0 = r1 ^ (mix32(r0 ^ this.k0) & mask);
    return l0 * (mask + 1) + r0;
  }
}

/**
 * An attribute with a few values spread over a population of ids by weight. The permutation moves
 * an id to a slot; the slot space is cut into one contiguous range per value. So the value of an
 * id is a binary search, and the ids holding a value are a range of slots mapped back: an index
 * derived from the seed, never stored.
 */
export class Partition {
  /** bounds[v] .. bounds[v + 1] is the slot range of value v. */
  private readonly bounds: Int32Array;
  private readonly permutation: Permutation;
  /** The last id looked up and its slot: building one person asks for the same id several times. */
  private lastId = -1;
  private lastSlot = -1;

  constructor(population: number, sizes: ArrayLike<number>, key: number) {
    this.bounds = new Int32Array(sizes.length + 1);
    for (let v = 0; v < sizes.length; v++) this.bounds[v + 1] = this.bounds[v]! + sizes[v]!;
    if (this.bounds[sizes.length] !== population) {
      throw new Error(`partition sizes add up to ${this.bounds[sizes.length]}, not ${population}`);
    }
    this.permutation = new Permutation(population, key);
  }

  valueOf(id: number): number {
    const slot = this.slotOf(id);
    let low = 0;
    let high = this.bounds.length - 2;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.bounds[middle]! <= slot) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  countOf(value: number): number {
    return this.bounds[value + 1]! - this.bounds[value]!;
  }

  /** The k-th id holding `value` (k < countOf(value)). */
  member(value: number, k: number): number {
    return this.permutation.inverse(this.bounds[value]! + k);
  }

  /** Which of the ids holding its value this id is: the inverse of `member`. */
  rankOf(id: number, value: number): number {
    return this.slotOf(id) - this.bounds[value]!;
  }

  private slotOf(id: number): number {
    if (id !== this.lastId) {
      this.lastSlot = this.permutation.forward(id);
      this.lastId = id;
    }
    return this.lastSlot;
  }
}

/**
 * Whole-number sizes proportional to `weights`, each at least 1, adding up to `total` exactly.
 * Only +, *, / and floor are used, which IEEE 754 defines exactly, so every machine agrees.
 */
export function apportion(weights: readonly number[], total: number): number[] {
  if (weights.length > total) throw new Error(`cannot give ${weights.length} values at least one of ${total}`);
  let weightSum = 0;
  for (const w of weights) weightSum += w;
  const spare = total - weights.length;
  const sizes = weights.map((w) => 1 + Math.floor((w / weightSum) * spare));
  let remainder = total - sizes.reduce((a, b) => a + b, 0);
  for (let i = 0; remainder > 0; i = (i + 1) % sizes.length, remainder--) sizes[i]! += 1;
  return sizes;
}
