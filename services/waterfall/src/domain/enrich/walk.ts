import type { Chain, ChainStep } from './chains';
import { companyMatchOf, type MissOutcome, type Verdict } from './verdicts';
import type { Row, Subject } from './subject';

/** How a client resumes an open provider job (rule 8): POST /tools/{tool}/{method} with {payload: {<id_arg>: job_id}}. */
export interface Resume {
  readonly tool: string;
  readonly method: string;
  readonly id_arg: string;
}

/** One step of a row's walk, as the response's `steps[]` shows it; `charged` in millicredits. */
export interface StepRecord {
  readonly step: string;
  readonly outcome: 'hit' | MissOutcome;
  readonly charged: number;
  readonly detail?: string;
  readonly job_id?: string;
  readonly resume?: Resume;
  readonly matched_name?: string | null;
}

/** A row on its way down the chain. */
export interface RowWalk {
  /** Index of the next step to try. */
  readonly next: number;
  readonly steps: readonly StepRecord[];
  readonly done: boolean;
  /** The hit that ended the walk. */
  readonly found?: { readonly value: unknown; readonly extra?: Readonly<Record<string, unknown>> };
  /** Fields the last verdict reported on the row (a mismatch's `matched_name`). */
  readonly reported?: Readonly<Record<string, unknown>>;
  /** The open job that ended the walk without a verdict. */
  readonly open?: { readonly provider: string; readonly jobId: string; readonly resume: Resume };
}

export const startWalk = (): RowWalk => ({ next: 0, steps: [], done: false });

export const stepName = (step: Pick<ChainStep, 'tool' | 'method'>) => `${step.tool}.${step.method}`;

/**
 * Rule 1: the walk stops at the first real hit, and only that step is billed (`price`); a miss,
 * soft or rejected, costs 0 and the walk goes on, unless the verdict ends the row (someone else's
 * profile) or the chain has no further step.
 */
export function afterVerdict(chain: Chain, walk: RowWalk, verdict: Verdict, price: number): RowWalk {
  const step = stepName(chain.steps[walk.next]!);
  if (verdict.kind === 'hit') {
    return {
      next: walk.next + 1,
      steps: [...walk.steps, { step, outcome: 'hit', charged: price }],
      done: true,
      found: { value: verdict.value, ...(verdict.extra && { extra: verdict.extra }) },
    };
  }
  const record: StepRecord = {
    step,
    outcome: verdict.outcome,
    charged: 0,
    ...(verdict.detail && { detail: verdict.detail }),
    ...(verdict.extra?.matched_name !== undefined && { matched_name: verdict.extra.matched_name as string | null }),
  };
  const next = walk.next + 1;
  return {
    next,
    steps: [...walk.steps, record],
    done: verdict.ends === true || next >= chain.steps.length,
    ...(verdict.extra && { reported: verdict.extra }),
  };
}

/**
 * Rule 8: a provider job still open at the end of the poll budget ends the row's walk with
 * `still_enriching`, charged 0, its job id and how to resume; the job settles later.
 */
export function afterOpenJob(chain: Chain, walk: RowWalk, provider: string, jobId: string, resume: Resume): RowWalk {
  const step = stepName(chain.steps[walk.next]!);
  return {
    next: walk.next + 1,
    steps: [...walk.steps, { step, outcome: 'still_enriching', charged: 0, job_id: jobId, resume }],
    done: true,
    open: { provider, jobId, resume },
  };
}

/** The millicredits a walk's steps charged. */
export function chargedOf(walk: RowWalk): number {
  return walk.steps.reduce((sum, step) => sum + step.charged, 0);
}

/**
 * The row as the response and the dataset show it: the client's keys, the capability's field
 * (null when not found), `hit`, the steps, rule 3's `company_match` on email rows, and for a row
 * left with an open job, its `job_id`, `resume`, `reason` and a hint (rule 8).
 */
export function enrichedRow(chain: Chain, row: Row, subject: Subject, walk: RowWalk): Row {
  const email = chain.capability === 'email_enrichment';
  return {
    ...row,
    [chain.field]: walk.found?.value ?? null,
    ...(email && (walk.found?.extra ?? companyMatchOf(subject))),
    ...(walk.reported?.matched_name !== undefined && { matched_name: walk.reported.matched_name }),
    hit: walk.found !== undefined,
    steps: walk.steps.map((step) => ({ ...step, charged: step.charged / 1000 })),
    ...(walk.open && {
      job_id: walk.open.jobId,
      resume: walk.open.resume,
      reason: 'still_enriching',
      hint: `the ${walk.open.provider} job is still running; its result is written here when it finishes. Poll GET /enrich/jobs/${walk.open.provider}/${walk.open.jobId} (free)`,
    }),
  };
}

/** A walk that has not reached its chain's end: the row is still being enriched. */
export const isPending = (walk: RowWalk) => !walk.done;

/** Rule 5: split the rows waiting for a batch provider into jobs of at most `maxSize`. */
export function batchesOf<T>(items: readonly T[], maxSize: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += maxSize) batches.push(items.slice(start, start + maxSize));
  return batches;
}

/** The correlation key a batch contact carries for row `index` of a run. */
export const refOf = (index: number) => `r${index}`;

/**
 * Rule 5: a batch's results matched to their rows by correlation key, never by position. Entries
 * with an unknown or repeated key are ignored; rows without an entry are absent from the map.
 */
export function correlate(results: readonly unknown[], field: string, refs: ReadonlySet<string>): Map<string, unknown> {
  const byRef = new Map<string, unknown>();
  const repeated = new Set<string>();
  for (const entry of results) {
    const ref = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)[field] : undefined;
    if (typeof ref !== 'string' || !refs.has(ref)) continue;
    if (byRef.has(ref)) repeated.add(ref);
    byRef.set(ref, entry);
  }
  for (const ref of repeated) byRef.delete(ref);
  return byRef;
}
