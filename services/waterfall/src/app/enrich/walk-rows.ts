import { chargeIdOf, type Caller, type Logger } from '@rde/platform';
import { CHAINS, inputFor, type Capability, type ChainStep } from '../../domain/enrich/chains';
import { refOf, afterOpenJob, afterVerdict, batchesOf, stepName, type RowWalk } from '../../domain/enrich/walk';
import { validationChargeIdOf } from '../../domain/enrich/ids';
import { invocationIdOf } from '../../domain/ids';
import type { Row, Subject } from '../../domain/enrich/subject';
import { miss, type Verdict } from '../../domain/enrich/verdicts';
import type { RunCharge } from '../../store/runs';
import { judge, Validations } from './judge';
import type { ProviderJobPort } from './job-port';
import type { MethodContract, ProviderPort } from '../../clients/providers';

/** The rows of one run and what it needs to walk them. */
export interface RowsRun {
  readonly runId: string;
  readonly caller: Caller;
  readonly capability: Capability;
  readonly datasetId: string;
  readonly rows: readonly Row[];
  readonly subjects: readonly Subject[];
  /** `YYYY-MM`: today's month, for current roles' durations. */
  readonly asOf: string;
  /** Only these rows are walked (a run taken over after its process died); default all. */
  readonly only?: ReadonlySet<number>;
}

/** Told of each row the moment its walk ends, with the run's charges that row caused. */
export type RowFinished = (index: number, walk: RowWalk, charges: readonly RunCharge[]) => void;

/**
 * Rule 5: every row goes through the first provider, the unanswered through the next, and so on.
 * Synchronous providers take the rows in parallel (paced per vendor), a batch provider takes all
 * pending rows as one job per batch, a job provider one job per row. Hits of synchronous steps and
 * validations are charged to the run; job hits are charged by their job.
 */
export class RowWalker {
  constructor(
    private readonly providers: ProviderPort,
    private readonly jobs: ProviderJobPort,
    private readonly logger: Logger,
  ) {}

  async walk(run: RowsRun, finished: RowFinished): Promise<void> {
    const chain = CHAINS[run.capability];
    const walks: RowWalk[] = run.rows.map((_, i) => ({
      next: 0,
      steps: [],
      done: run.only ? !run.only.has(i) : false,
    }));
    let validationCharges: RunCharge[] = [];
    const validatorPrice = chain.validator
      ? (await this.providers.contract(chain.validator.tool, chain.validator.method)).price
      : 0;
    const validations = chain.validator
      ? new Validations(this.providers, chain.validator, run.caller, (address) =>
          validationCharges.push({
            charge_id: validationChargeIdOf(run.runId, address),
            millicredits: validatorPrice,
            description: `${run.capability} ${stepName(chain.validator!)}`,
          }),
        )
      : undefined;
    /** Records a row's new walk and reports it when it ended, with its charges and pending validations. */
    const advance = (index: number, walk: RowWalk, charges: RunCharge[]) => {
      walks[index] = walk;
      if (!walk.done) return;
      const owed = [...charges, ...validationCharges];
      validationCharges = [];
      finished(index, walk, owed);
    };

    for (const [stepIndex, step] of chain.steps.entries()) {
      const pending = walks.flatMap((walk, index) => (!walk.done && walk.next === stepIndex ? [index] : []));
      if (pending.length === 0) continue;
      const contract = await this.providers.contract(step.tool, step.method);
      const ready: { index: number; input: Record<string, string> }[] = [];
      for (const index of pending) {
        const input = inputFor(step, run.subjects[index]!);
        if (input) ready.push({ index, input });
        else
          advance(index, afterVerdict(chain, walks[index]!, miss('skip', 'row lacks what this provider needs'), 0), []);
      }
      if (step.kind === 'lookup') {
        await Promise.all(
          ready.map(async ({ index, input }) => {
            const verdict = await this.lookup(run, step, input, index, validations);
            const charges = verdict.kind === 'hit' ? [this.stepCharge(run, index, step, contract)] : [];
            advance(index, afterVerdict(chain, walks[index]!, verdict, contract.price), charges);
          }),
        );
        continue;
      }
      const groups =
        step.kind === 'batch' ? batchesOf(ready, contract.job?.batch?.maxSize ?? 1) : ready.map((r) => [r]);
      await Promise.all(
        groups.map(async (group) => {
          const outcome = await this.jobs.run(
            { runId: run.runId, caller: run.caller, capability: run.capability, stepIndex, datasetId: run.datasetId },
            step,
            contract.job!,
            contract.price,
            group.map(({ index, input }) => ({
              index,
              ...(step.kind === 'batch' && { ref: refOf(index) }),
              row: run.rows[index]!,
              subject: run.subjects[index]!,
              input,
              walk: walks[index]!,
            })),
          );
          for (const { index } of group) {
            const walk = walks[index]!;
            if (outcome.kind === 'open') {
              advance(index, afterOpenJob(chain, walk, step.tool, outcome.jobId, outcome.resume), []);
            } else {
              const verdict = outcome.kind === 'failed' ? outcome.verdict : outcome.verdicts.get(index)!;
              // A job's hit is charged by the job's own settlement, not the run's.
              advance(index, afterVerdict(chain, walk, verdict, contract.price), []);
            }
          }
        }),
      );
    }
  }

  private async lookup(
    run: RowsRun,
    step: ChainStep,
    input: Record<string, string>,
    index: number,
    validations: Validations | undefined,
  ): Promise<Verdict> {
    const result = await this.providers.invoke(
      {
        tool: step.tool,
        method: step.method,
        payload: input,
        invocationId: invocationIdOf(run.runId, index, stepName(step), 0),
      },
      run.caller,
    );
    if (!result.ok) {
      this.logger.debug({ runId: run.runId, step: step.tool, reason: result.reason }, 'provider failed: a free skip');
      return miss('skip', result.reason);
    }
    return judge(CHAINS[run.capability], step, run.subjects[index]!, result.answer, {
      asOf: run.asOf,
      ...(validations && { validations }),
    });
  }

  private stepCharge(run: RowsRun, index: number, step: ChainStep, contract: MethodContract): RunCharge {
    return {
      charge_id: chargeIdOf(run.runId, index, stepName(step)),
      millicredits: contract.price,
      description: `${run.capability} ${stepName(step)}`,
    };
  }
}
