/**
 * The sandbox universe: how long generating one person takes on a fresh universe (nothing built
 * in advance). Prints microseconds per person; asserts nothing on time.
 *
 *   npx tsx test/bench/universe.bench.ts
 */
import { DEFAULT_UNIVERSE, Universe } from '../../services/sandbox/src/domain/universe';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 20_000);

function main(): void {
  const universe = new Universe({ seed: 'bench', ...DEFAULT_UNIVERSE });
  const began = performance.now();
  for (let id = 0; id < PEOPLE; id++) universe.person(999_999 - id);
  const micros = ((performance.now() - began) * 1000) / PEOPLE;
  console.log(`universe bench: ${PEOPLE} people generated, ${micros.toFixed(1)} µs per person`);
}

main();
