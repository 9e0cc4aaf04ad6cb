import type { Caller } from '@rde/platform';
import type { Capability, ChainStep } from '../../domain/enrich/chains';
import type { Subject } from '../../domain/enrich/subject';
import type { Verdict } from '../../domain/enrich/verdicts';
import type { Resume, RowWalk } from '../../domain/enrich/walk';
import type { catalog } from '@rde/proto';
import type { JsonObject } from '../../clients/providers';

/** A row handed to a provider job. */
export interface JobRowInput {
  readonly index: number;
  readonly ref?: string;
  readonly row: JsonObject;
  readonly subject: Subject;
  readonly input: Record<string, string>;
  readonly walk: RowWalk;
}

/** The run a job belongs to. */
export interface JobRun {
  readonly runId: string;
  readonly caller: Caller;
  readonly capability: Capability;
  readonly stepIndex: number;
  readonly datasetId: string;
}

/** Per row: the job's verdict, or `open` when it was still running at the end of the poll budget. */
export type JobOutcome =
  | { readonly kind: 'settled'; readonly verdicts: Map<number, Verdict> }
  | { readonly kind: 'open'; readonly jobId: string; readonly resume: Resume }
  | { readonly kind: 'failed'; readonly verdict: Verdict };

/** What the walk needs of provider jobs (rule 8); the jobs feature implements it, the module wires it in. */
export interface ProviderJobPort {
  run(
    run: JobRun,
    step: ChainStep,
    shape: catalog.JobDeclaration,
    price: number,
    rows: readonly JobRowInput[],
  ): Promise<JobOutcome>;
}
