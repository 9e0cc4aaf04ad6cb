/**
 * The qualify scorer against the sandbox-built labelled set (qualify-labels.ts): Spearman rank
 * correlation and NDCG@10 per job spec (mean printed), and throughput in candidates per second.
 * Figures only; nothing here asserts.
 *
 *   pnpm exec tsx test/bench/qualify.bench.ts
 */
import { qualifyCandidates } from '../../services/waterfall/src/domain/qualify';
import { buildLabelledSet } from './qualify-labels';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 20);

function main(): void {
  const { cases, asOfMonth } = buildLabelledSet();
  const rows: string[] = [];
  let spearmanSum = 0;
  let ndcgSum = 0;
  for (const labelled of cases) {
    const { ranked } = qualifyCandidates(labelled.jobSpec, labelled.candidates, asOfMonth);
    const scores = new Array<number>(labelled.candidates.length);
    for (const entry of ranked) scores[entry.position] = entry.row.qualify.score;
    const rho = spearman(scores, labelled.relevance);
    const ndcg = ndcgAt(
      10,
      ranked.map((entry) => labelled.relevance[entry.position]!),
      labelled.relevance,
    );
    spearmanSum += rho;
    ndcgSum += ndcg;
    rows.push(`  ${labelled.jobSpec.padEnd(72)} spearman ${rho.toFixed(3)}  ndcg@10 ${ndcg.toFixed(3)}`);
  }
  const total = cases.reduce((sum, labelled) => sum + labelled.candidates.length, 0);
  const began = performance.now();
  for (let n = 0; n < REPEATS; n++) {
    for (const labelled of cases) qualifyCandidates(labelled.jobSpec, labelled.candidates, asOfMonth);
  }
  const perSecond = (total * REPEATS) / ((performance.now() - began) / 1000);
  console.log(`qualify bench: ${cases.length} job specs, ${total} labelled candidates`);
  console.log(rows.join('\n'));
  console.log(
    `mean spearman ${(spearmanSum / cases.length).toFixed(3)}, mean ndcg@10 ${(ndcgSum / cases.length).toFixed(3)}, ` +
      `throughput ${Math.round(perSecond)} candidates/s (one core, ${REPEATS} passes)`,
  );
}

/** Spearman's rho: Pearson correlation of the ranks (ties take their average rank). */
function spearman(a: readonly number[], b: readonly number[]): number {
  return pearson(ranks(a), ranks(b));
}

function ranks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((x, y) => x.value - y.value);
  const result = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.value === order[start]!.value) end++;
    for (let k = start; k <= end; k++) result[order[k]!.index] = (start + end) / 2;
    start = end + 1;
  }
  return result;
}

function pearson(a: readonly number[], b: readonly number[]): number {
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const [ma, mb] = [mean(a), mean(b)];
  let [cov, va, vb] = [0, 0, 0];
  for (let i = 0; i < a.length; i++) {
    cov += (a[i]! - ma) * (b[i]! - mb);
    va += (a[i]! - ma) ** 2;
    vb += (b[i]! - mb) ** 2;
  }
  return cov / Math.sqrt(va * vb);
}

/** NDCG@k with linear gains: the ranking's DCG over the ideal ordering's. */
function ndcgAt(k: number, rankedGains: readonly number[], allGains: readonly number[]): number {
  const dcg = (gains: readonly number[]) =>
    gains.slice(0, k).reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0);
  return dcg(rankedGains) / dcg([...allGains].sort((x, y) => y - x));
}

main();
