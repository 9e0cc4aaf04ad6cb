import { parseCallRequest } from '../src/domain/call-request';
import { conditionHolds } from '../src/domain/condition-value';
import { endStatusOf, paidCallIdOf, type StepState } from '../src/domain/run';
import { refusalError, stopOf } from '../src/domain/step-error';
import { planStep } from '../src/domain/step-plan';
import { isWebhookIdShape, newWebhookId, sameHash, webhookHashOf } from '../src/domain/webhook-id';

const scope = { input: { people: ['a', 'b', 'c'] }, runId: 'wfr_1', outputs: new Map<string, unknown>() };
const each = {
  id: 'each',
  uses: 'verimail.verify',
  with: { email: '{{item}}' },
  for_each: { items: '{{input.people}}' },
};
const step = (status: StepState['status'], continued = false): StepState => ({
  id: status,
  uses: 'qualify',
  status,
  items: [],
  ...(continued && { continued }),
});

describe('workflow runs (domain)', () => {
  test('a call names its workflow by exactly one key; input or payload, not both; mode and source checked', () => {
    expect(parseCallRequest({ workflow: 'wf_1', payload: { a: 1 } })).toEqual({
      request: { workflow: { by: 'id', value: 'wf_1' }, input: { a: 1 }, mode: 'live' },
    });
    expect(parseCallRequest({ workflow: 'my-flow', mode: 'smoke_test', source: 'cron' })).toEqual({
      request: { workflow: { by: 'name', value: 'my-flow' }, input: {}, mode: 'smoke_test', source: 'cron' },
    });
    const refused = (body: unknown) => ('issues' in parseCallRequest(body) ? 'refused' : 'accepted');
    for (const body of [
      {},
      { name: 'a', workflow_id: 'wf_1' },
      { name: 'a', input: {}, payload: {} },
      { name: 'a', input: [] },
      { name: 'a', mode: 'later' },
      { name: 'a', source: '' },
      { name: 'a', other: 1 },
      { name: '' },
      [],
    ]) {
      expect([body, refused(body)]).toEqual([body, 'refused']);
    }
  });

  test('conditions are data: comparisons, boolean operators and `in`, JSON Logic truth', () => {
    expect(conditionHolds({ '>': ['3', 0] })).toBe(true);
    expect(conditionHolds({ and: [{ '==': [1, '1'] }, { '!': [[]] }] })).toBe(true);
    expect(conditionHolds({ in: ['b', ['a', 'b']] })).toBe(true);
    expect(conditionHolds({ or: [{ '<': [2, 1] }, { '!=': ['x', 'x'] }] })).toBe(false);
  });

  test('a plan: one call per item, a smoke test takes the first only, too many items refuse the step', () => {
    expect(planStep(each, scope, 'live')).toEqual({
      kind: 'calls',
      inputs: [{ email: 'a' }, { email: 'b' }, { email: 'c' }],
    });
    expect(planStep(each, scope, 'smoke_test')).toEqual({ kind: 'calls', inputs: [{ email: 'a' }] });
    const bounded = { ...each, for_each: { items: '{{input.people}}', max_items: 2 } };
    expect(planStep(bounded, scope, 'live')).toMatchObject({ kind: 'refuse', error: { code: 'too_many_items' } });
    expect(planStep({ ...each, if: { '==': ['{{input.people.0}}', 'z'] } }, scope, 'live')).toEqual({ kind: 'skip' });
    const search = { id: 'find', uses: 'search.people_search', with: { titles: ['CTO'], limit: 50 } };
    expect(planStep(search, scope, 'smoke_test')).toEqual({ kind: 'calls', inputs: [{ titles: ['CTO'], limit: 1 }] });
    const run = { id: 'enrich', uses: 'enrich.run', with: { input: 'ds_1', steps: ['email_enrichment'] } };
    expect(planStep(run, scope, 'smoke_test')).toMatchObject({ inputs: [{ input: 'ds_1', range: '0:1' }] });
    expect(planStep({ ...run, with: { ...run.with, range: '40:90' } }, scope, 'smoke_test')).toMatchObject({
      inputs: [{ range: '40:41' }],
    });
    expect(planStep(run, scope, 'live')).toEqual({ kind: 'calls', inputs: [run.with] });
  });

  test('a paid call id is the same for the same run, step and item, and in the catalog run id format', () => {
    expect(paidCallIdOf('wfr_1', 'each', 2)).toBe(paidCallIdOf('wfr_1', 'each', 2));
    expect(paidCallIdOf('wfr_1', 'each', 2)).not.toBe(paidCallIdOf('wfr_1', 'each', 3));
    expect(paidCallIdOf('wfr_1', 'each', 2)).toMatch(/^run_[0-9a-f]{24}$/);
  });

  test('a run ends cancelled, failed at its first failing step (unless it continued), or succeeded', () => {
    expect(endStatusOf([step('succeeded'), step('cancelled')]).status).toBe('cancelled');
    expect(endStatusOf([step('failed'), step('skipped')]).status).toBe('failed');
    expect(endStatusOf([step('failed', true), step('succeeded')]).status).toBe('succeeded');
  });

  test('webhook ids: 256 random bits, compared by hash in constant time', () => {
    const id = newWebhookId();
    expect(isWebhookIdShape(id)).toBe(true);
    expect(isWebhookIdShape(`${id}x`)).toBe(false);
    expect(newWebhookId()).not.toBe(id);
    expect(sameHash(webhookHashOf(id), webhookHashOf(id))).toBe(true);
    expect(sameHash(webhookHashOf(id), webhookHashOf(newWebhookId()))).toBe(false);
  });

  test("a refusal's code: its own (beside or inside detail), else by status; an ended enrich.run that failed stops", () => {
    const conflict = { detail: { reason: 'append_conflict', message: 'The dataset held 2 rows, not 0' } };
    expect(refusalError(409, conflict)).toEqual({ code: 'append_conflict', message: 'The dataset held 2 rows, not 0' });
    expect(refusalError(404, { detail: 'Dataset not found' })).toEqual({
      code: 'not_found',
      message: 'Dataset not found',
    });
    expect(refusalError(400, { detail: 'no' }).code).toBe('call_refused');
    expect(refusalError(503, { detail: 'down' }).code).toBe('call_failed');
    const failed = { run_id: 'enr_1', status: 'failed', _meta: { error: 'vendor down' } };
    expect(stopOf('enrich.run', failed)).toEqual({
      code: 'enrich_run_failed',
      message: 'the enrichment run enr_1 ended failed: vendor down',
    });
    expect(stopOf('enrich.run', { ...failed, status: 'completed' })).toBeUndefined();
    // Only an enrich.run's record is read so: a tool's answer may say anything about its own status.
    expect(stopOf('verimail.verify', failed)).toBeUndefined();
  });
});
