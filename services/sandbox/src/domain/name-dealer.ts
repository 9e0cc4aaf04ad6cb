import { hash2 } from './hash';
import { Permutation, type Partition } from './partition';
import { FIRST_NAMES, LAST_NAMES } from './person-vocabulary';
import { compact } from './text';

const NAME_SLOTS = FIRST_NAMES.length * LAST_NAMES.length;
/** Prime and not a factor of NAME_SLOTS, so stepping by it visits every slot before repeating. */
const NAME_STRIDE = 7919;
const NAME_STRIDE_INVERSE = modularInverse(NAME_STRIDE, NAME_SLOTS);
const FIRST_NAME_INDEX = new Map(FIRST_NAMES.map((name, i) => [compact(name), i]));
const LAST_NAME_INDEX = new Map(LAST_NAMES.map((name, i) => [compact(name), i]));

function modularInverse(value: number, modulus: number): number {
  let [a, b, x, y] = [value % modulus, modulus, 1, 0];
  while (b !== 0) {
    const q = Math.floor(a / b);
    [a, b, x, y] = [b, a - q * b, y, x - q * y];
  }
  if (a !== 1) throw new Error(`${value} has no inverse modulo ${modulus}`);
  return ((x % modulus) + modulus) % modulus;
}

/**
 * Names are dealt per company: the k-th employee of company c gets name slot
 * (offset(c) + k * NAME_STRIDE) mod NAME_SLOTS, shuffled by a permutation. So names are unique
 * within a company (no two people share a work address) and a name finds its person in O(1).
 */
export class NameDealer {
  private readonly slots: Permutation;

  /** `employment` ranks each company's staff; the keys seed the offsets and the shuffle. */
  constructor(
    private readonly employment: Partition,
    private readonly offsetKey: number,
    slotsKey: number,
  ) {
    this.slots = new Permutation(NAME_SLOTS, slotsKey);
  }

  nameOf(id: number, company: number): { first: string; last: string } {
    const slot = (this.offset(company) + this.employment.rankOf(id, company) * NAME_STRIDE) % NAME_SLOTS;
    const name = this.slots.forward(slot);
    return { first: FIRST_NAMES[Math.floor(name / LAST_NAMES.length)]!, last: LAST_NAMES[name % LAST_NAMES.length]! };
  }

  /** The current employee of an existing company with this name, if any: `nameOf` run backwards. */
  employeeNamed(company: number, firstName: string, lastName: string): number | undefined {
    const first = FIRST_NAME_INDEX.get(compact(firstName));
    const last = LAST_NAME_INDEX.get(compact(lastName));
    if (first === undefined || last === undefined) return undefined;
    const slot = this.slots.inverse(first * LAST_NAMES.length + last);
    const rank = (((slot - this.offset(company)) % NAME_SLOTS) + NAME_SLOTS) % NAME_SLOTS;
    const employee = (rank * NAME_STRIDE_INVERSE) % NAME_SLOTS;
    return employee < this.employment.countOf(company) ? this.employment.member(company, employee) : undefined;
  }

  private offset(company: number): number {
    return hash2(this.offsetKey, company) % NAME_SLOTS;
  }
}
