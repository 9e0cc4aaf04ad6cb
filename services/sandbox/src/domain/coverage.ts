import { hash2, hashString, unit } from './hash';
import type { Universe } from './universe';

/**
 * A vendor's fixed answer to one yes/no question about people ("do you know them?", "do you mix
 * them up with someone else?"): the same every time under a seed, independent between vendors and
 * questions, so vendors overlap imperfectly and a waterfall over several finds more than any one.
 */
export function vendorQuestion(
  universe: Universe,
  vendor: string,
  question: string,
): (id: number, rate: number) => boolean {
  const key = universe.seedHash ^ hashString(`${vendor}:${question}`);
  return (id, rate) => unit(hash2(key, id)) < rate;
}
