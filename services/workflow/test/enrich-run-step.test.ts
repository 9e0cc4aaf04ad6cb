import type { Caller, ServiceClient } from '@rde/platform';
import type { waterfall } from '@rde/proto';
import { enrichRunCall } from '../src/clients/enrich-run-step';
import type { StepCall } from '../src/clients/step-call';
import { paidCallIdOf } from '../src/domain/run';
import { parseUses } from '../src/domain/uses';

type Waterfall = ServiceClient<typeof waterfall.WaterfallServiceService>;

/**
 * The waterfall's dataset runs as the step sees them: a start under a caller run id makes one run
 * (a repeat answers it: the waterfall's join, tested in services/waterfall), which reads `running`
 * for `polls` reads and then ends having charged 4.5 credits.
 */
function runsDouble(polls: number) {
  const starts: { body: Record<string, unknown>; runId: string }[] = [];
  const runs = new Map<string, number>();
  const record = (runId: string, reads: number) => {
    const running = reads < polls;
    const meta = running ? { run_id: runId, poll_after_s: 2 } : { run_id: runId, charged: 4.5, credits_charged: 4.5 };
    return { run_id: runId, status: running ? 'running' : 'completed', _meta: meta };
  };
  const json = (value: unknown) => ({ runJson: Buffer.from(JSON.stringify(value)) });
  const client = {
    rpc: {
      startEnrichRun: async ({ bodyJson, runId }: { bodyJson: Buffer; runId: string }) => {
        const body = JSON.parse(bodyJson.toString()) as Record<string, unknown>;
        starts.push({ body, runId });
        if (body.estimate) return json({ status: 'estimate', _meta: { credits_charged: 0, would_charge_credits: 9 } });
        const id = `enr_${runId.slice(4)}`;
        if (!runs.has(id)) runs.set(id, 0);
        return json(record(id, runs.get(id)!));
      },
      getEnrichRun: async ({ runId }: { runId: string }) => {
        runs.set(runId, runs.get(runId)! + 1);
        return json(record(runId, runs.get(runId)!));
      },
    },
  } as unknown as Waterfall;
  return { client, starts, runs };
}

const caller = { workspaceId: 'ws_unit', workflowRunId: 'wfr_unit' } as Caller;
const WITH = { input: 'ds_input', steps: ['email_enrichment'] };

function stepOf(dryRun: boolean): StepCall {
  const uses = parseUses('enrich.run');
  if (uses.kind !== 'builtin') throw new Error('enrich.run is a builtin');
  return { uses, name: 'enrich.run', input: WITH, dryRun, callId: paidCallIdOf('wfr_unit', 'enrich', 0), caller };
}

describe('the enrich.run step (decision 0088)', () => {
  test('waits for its run to end, polling at the interval, and answers the run with its charge', async () => {
    const { client, starts } = runsDouble(3);
    const pauses: number[] = [];
    const call = enrichRunCall(client, { pollMs: 750, sleep: async (ms) => void pauses.push(ms) });
    const result = await call(stepOf(false));
    expect(result).toEqual({
      output: expect.objectContaining({ status: 'completed' }),
      chargedMillicredits: 4_500,
      wouldChargeMillicredits: 0,
    });
    expect(pauses).toEqual([750, 750]);
    expect(starts).toEqual([{ body: { ...WITH, detach: true }, runId: stepOf(false).callId }]);
  });

  test('the step repeated (a redelivered run, a replica taking it over) starts under the same id: one run', async () => {
    const { client, starts, runs } = runsDouble(1);
    const call = enrichRunCall(client, { pollMs: 1, sleep: async () => undefined });
    const [first, repeat] = [await call(stepOf(false)), await call(stepOf(false))];
    expect(repeat).toEqual(first);
    expect(new Set(starts.map((start) => start.runId)).size).toBe(1);
    expect(runs.size).toBe(1);
  });

  test('a dry run asks for the estimate under no id, and reports it as the would-charge', async () => {
    const { client, starts, runs } = runsDouble(1);
    const result = await enrichRunCall(client, { pollMs: 1, sleep: async () => undefined })(stepOf(true));
    expect(result).toMatchObject({ chargedMillicredits: 0, wouldChargeMillicredits: 9_000 });
    expect(starts).toEqual([{ body: { ...WITH, estimate: true }, runId: '' }]);
    expect(runs.size).toBe(0);
  });
});
