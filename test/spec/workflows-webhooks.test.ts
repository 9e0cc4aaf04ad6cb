import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { newTeam } from '../e2e/teams';
import { QUICK_ENRICHMENT_ENV } from './enrichment-support';
import { runsSupport, threeStep, verifications } from './workflows-runs-support';
import { declaredPost } from './workflows-support';

jest.setTimeout(300_000);

/** Calls one URL may make per minute in this suite (decision 0075's default is 60). */
const RATE = 5;

/**
 * Inbound workflow webhooks (spec "Webhook triggers", Authentication 7; decision 0075): the id
 * shown once on the apply that made the workflow a webhook one, stored hashed, rotated; the body
 * becomes the live run's input; every refusal (unknown or rotated id, disabled or deleted
 * workflow, a body that is not an object or too large, a flood) starts nothing.
 */
describe(`workflows: inbound webhooks (${mode})`, () => {
  let rde: RunningRde;
  const { workflows, applied, ended, runCharges, sum } = runsSupport(() => rde);
  const team = () => newTeam(rde, 'wfhooks');
  const fire = (path: string, body: unknown) => api(rde, 'POST', path, { key: null, body });
  const runCount = async (key: string) => (await workflows(key, 'GET', '/runs')).body.total as number;

  /** A webhook workflow: its id and its URL (shown on the apply that created it). */
  async function webhook(key: string, definition: Record<string, unknown>) {
    const created = await workflows(key, 'POST', '/apply', { ...definition, trigger: { type: 'webhook' } });
    expect(created.status).toBe(201);
    return {
      id: created.body.id as string,
      url: created.body.webhook_url as string,
      hookId: created.body.webhook_id as string,
    };
  }

  beforeAll(async () => {
    rde = await startRde({ ...QUICK_ENRICHMENT_ENV, RDE_WEBHOOK_RATE_PER_MINUTE: String(RATE) }, mode, {
      replicas: { workflow: 2 },
    });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test('the 3-step workflow fired by its webhook runs live on the body; the id is shown once', async () => {
    const { owner } = await team();
    const { id, url, hookId } = await webhook(owner, threeStep('hooked'));
    expect(hookId).toMatch(/^wh_[A-Za-z0-9_-]{43}$/);
    expect(url).toBe(`/api/v2/webhooks/inbound/${hookId}`);
    const again = await workflows(owner, 'POST', '/apply', threeStep('hooked', 'webhook'));
    expect(again.body).toMatchObject({ changed: false });
    expect(again.body.webhook_id).toBeUndefined();
    expect(JSON.stringify((await workflows(owner, 'GET', `/${id}`)).body)).not.toContain(hookId);

    const fired = await fire(url, { city: 'Berlin' });
    expect(fired).toMatchObject({ status: 202, body: { workflow_id: id, status: 'queued' } });
    const done = await ended(owner, id, fired.body.run_id);
    expect(done).toMatchObject({ status: 'succeeded', source: 'webhook', mode: 'live', input: { city: 'Berlin' } });
    expect(done.steps.map((step: any) => step.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(done.charged_credits).toBeGreaterThan(0);
    expect(sum(await runCharges(owner, done.id))).toBe(done.charged_credits);
  });

  test('rotate: the new id works, the old one is 404 at once; a manual workflow cannot rotate (409)', async () => {
    const { owner } = await team();
    const { id, url } = await webhook(owner, verifications('rotated', 1));
    const rotated = await workflows(owner, 'POST', `/${id}/webhook/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhook_url).not.toBe(url);
    expect((await fire(url, {})).status).toBe(404);
    const fired = await fire(rotated.body.webhook_url, {});
    expect(fired.status).toBe(202);
    expect((await ended(owner, id, fired.body.run_id)).status).toBe('succeeded');
    const manual = await applied(owner, verifications('manual', 1));
    expect(await workflows(owner, 'POST', `/${manual}/webhook/rotate`)).toMatchObject({
      status: 409,
      body: { error: 'not_a_webhook_workflow' },
    });
    expect((await workflows(owner, 'POST', '/wf_000000000000000000000000/webhook/rotate')).status).toBe(404);
    const theirs = await team();
    expect((await workflows(theirs.owner, 'POST', `/${id}/webhook/rotate`)).status).toBe(404);
    expect((await fire(rotated.body.webhook_url, {})).status).toBe(202);
  });

  test('refusals start nothing: unknown id 404, not an object 422, bad input 422, too large 413, disabled 409, deleted 404', async () => {
    const { owner } = await team();
    const { id, url } = await webhook(owner, threeStep('refusing'));
    const unknown = `/api/v2/webhooks/inbound/wh_${'A'.repeat(43)}`;
    expect((await fire(unknown, { city: 'Berlin' })).status).toBe(404);
    expect((await fire('/api/v2/webhooks/inbound/not-an-id', { city: 'Berlin' })).status).toBe(404);
    expect((await fire(url, ['Berlin'])).status).toBe(422);
    expect((await fire(url, 'Berlin')).status).toBe(422);
    const badInput = await fire(url, { city: 7 });
    expect(badInput.status).toBe(422);
    expect(badInput.body.detail[0].loc).toEqual(['body', 'input', 'city']);
    expect(await declaredPost(`${rde.baseUrl}${url}`, owner, 65 * 1024)).toBe(413);
    await workflows(owner, 'POST', `/${id}/disable`);
    expect(await fire(url, { city: 'Berlin' })).toMatchObject({ status: 409, body: { error: 'workflow_disabled' } });
    await workflows(owner, 'POST', `/${id}/enable`);
    await workflows(owner, 'DELETE', `/${id}`);
    expect((await fire(url, { city: 'Berlin' })).status).toBe(404);
    expect(await runCount(owner)).toBe(0);
  });

  test(`a flood from one URL: past ${RATE} calls a minute it is 429 with retry_after, and no run starts`, async () => {
    const { owner } = await team();
    const { url } = await webhook(owner, verifications('flooded', 1));
    const statuses = [];
    for (let call = 0; call <= RATE; call += 1) statuses.push((await fire(url, { n: call })).status);
    expect(statuses).toEqual([...Array(RATE).fill(202), 429]);
    const refused = await fire(url, {});
    expect(refused.body).toMatchObject({ error: 'rate_limited', retry_after: expect.any(Number) });
    expect(await runCount(owner)).toBe(RATE);
  });
});
