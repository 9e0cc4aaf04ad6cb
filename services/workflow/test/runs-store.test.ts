import type { RunRecord, StepState } from '../src/domain/run';
import { WorkflowRunsRepository } from '../src/store/runs';
import { workflowsUnderTest } from './support';

const step = (id: string, status: StepState['status']): StepState => ({ id, uses: 'qualify', status, items: [] });

/** A queued run of two steps in workspace ws_1. */
const queuedRun = (id: string): RunRecord => ({
  id,
  workspaceId: 'ws_1',
  workflowId: 'wf_1',
  workflowName: 'two-steps',
  version: 1,
  mode: 'live',
  source: 'api',
  status: 'queued',
  input: {},
  steps: [step('a', 'pending'), step('b', 'pending')],
  cancelRequested: false,
  createdAt: 1,
});

describe("a run's steps stored as each begins (one write a step)", () => {
  async function claimed(id: string) {
    const { store } = await workflowsUnderTest();
    const runs = await WorkflowRunsRepository.open(store);
    await runs.insert(queuedRun(id));
    await runs.claim(id, 'replica-1', 10, 60_000);
    return runs;
  }
  const begun = [step('a', 'succeeded'), step('b', 'running')];

  test('the holder stores the step before ended and this one running', async () => {
    const runs = await claimed('wfr_begin');
    expect(await runs.beginStep('wfr_begin', 'replica-1', begun)).toBe('begun');
    expect((await runs.get('wfr_begin'))!.steps.map((s) => s.status)).toEqual(['succeeded', 'running']);
  });

  test('after a cancel was asked nothing is written and the worker is told to stop', async () => {
    const runs = await claimed('wfr_cancel');
    await runs.cancel('ws_1', 'wf_1', 'wfr_cancel', 20);
    expect(await runs.beginStep('wfr_cancel', 'replica-1', begun)).toBe('cancel_requested');
    expect((await runs.get('wfr_cancel'))!.steps.map((s) => s.status)).toEqual(['pending', 'pending']);
  });

  test('a replica that no longer holds the run writes nothing and learns it lost it', async () => {
    const runs = await claimed('wfr_lost');
    expect(await runs.beginStep('wfr_lost', 'replica-2', begun)).toBe('lost');
    expect((await runs.get('wfr_lost'))!.steps.map((s) => s.status)).toEqual(['pending', 'pending']);
  });
});
