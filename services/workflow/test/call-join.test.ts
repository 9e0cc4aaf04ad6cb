import { RdeError } from '@rde/platform';
import { CallWorkflow } from '../src/app/call-workflow';
import { QueueRun } from '../src/app/queue-run';
import { InputCheck } from '../src/domain/input-check';
import type { RunQueue } from '../src/events/run-queue';
import { WorkflowRunsRepository } from '../src/store/runs';
import { caller, definition, testLogger, workflowsUnderTest } from './support';

/** A call id as the gateway derives one from an Idempotency-Key. */
const callId = (digit: string) => `run_${digit.repeat(24)}`;

describe('call: a repeat of a call its caller named (an Idempotency-Key after the gateway died)', () => {
  async function calls() {
    const { store, clock, workflows, apply } = await workflowsUnderTest();
    const runs = await WorkflowRunsRepository.open(store);
    const published: string[] = [];
    const queue = { publish: async (runId: string) => void published.push(runId) } as unknown as RunQueue;
    const call = new CallWorkflow(workflows, new QueueRun(workflows, runs, new InputCheck(), queue, clock, testLogger));
    await apply.apply(definition('first'), caller);
    await apply.apply(definition('second'), caller);
    return { call, published };
  }

  test('answers the run the first call queued, queued once; an unnamed call is always a new run', async () => {
    const { call, published } = await calls();
    const first = await call.call({ workflow: 'first' }, caller, 'api', callId('a'));
    const repeat = await call.call({ workflow: 'first' }, caller, 'api', callId('a'));
    expect(repeat).toEqual(first);
    expect(published).toEqual([first.id]);
    const unnamed = [
      await call.call({ workflow: 'first' }, caller, 'api'),
      await call.call({ workflow: 'first' }, caller, 'api'),
    ];
    expect(new Set([first.id, ...unnamed.map((run) => run.id)]).size).toBe(3);
  });

  test('the same id for another workflow is a 409; a malformed id is a 400; neither queues anything', async () => {
    const { call, published } = await calls();
    await call.call({ workflow: 'first' }, caller, 'api', callId('b'));
    const refusals = await Promise.all([
      call.call({ workflow: 'second' }, caller, 'api', callId('b')).catch((error: RdeError) => error.httpStatus),
      call.call({ workflow: 'first' }, caller, 'api', 'run_short').catch((error: RdeError) => error.httpStatus),
    ]);
    expect(refusals).toEqual([409, 400]);
    expect(published).toHaveLength(1);
  });
});
