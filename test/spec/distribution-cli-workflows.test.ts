import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildClientArchive } from '@rde/client';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { runClient } from '../support/rde-client';
import { enrichmentSupport } from './enrichment-support';
import { runsSupport, verifications } from './workflows-runs-support';
import { definition, workflowSupport } from './workflows-support';

jest.setTimeout(180_000);

/**
 * Distribution (issue 27): `rde workflows …` in the released client, against RDE — lint and apply a
 * definition file, list, show a version, disable, enable, delete; call a workflow and follow its run,
 * list runs, show one, cancel one — with the spec's errors shown readably and each error class's exit
 * code. Definitions are free: their ledger stays empty; a run's charge is its ledger rows.
 */
describe(`Distribution: rde workflows (${mode})`, () => {
  let rde: RunningRde;
  let home: string;
  let client: string;
  const { workspace, charges, call } = workflowSupport(() => rde);
  const { settled, knobs, resetKnobs } = enrichmentSupport(() => rde);
  const { applied, ended, run, runCharges, sum } = runsSupport(() => rde);

  beforeAll(async () => {
    [rde, home] = await Promise.all([startRde(), mkdtemp(path.join(os.tmpdir(), 'rde-cli-workflows-'))]);
    client = path.join(home, 'rde.pyz');
    await writeFile(client, (await buildClientArchive()).bytes);
  });
  afterAll(async () => {
    await rde?.stop();
    await rm(home, { recursive: true, force: true });
  });

  const rdeAs = (key: string) => (args: string[]) =>
    runClient(home, 'python3', [client, '--url', rde.baseUrl, '--api-key', key, ...args]);
  const file = async (name: string, body: unknown) => {
    const written = path.join(home, name);
    await writeFile(written, typeof body === 'string' ? body : JSON.stringify(body));
    return written;
  };
  const json = (printed: { stdout: string }) => JSON.parse(printed.stdout);

  test('lint and apply a definition file, list it, show each version; a second apply of the same file changes nothing', async () => {
    const key = await workspace();
    const cli = rdeAs(key);
    const v1 = await file('v1.json', definition('cli-flow'));
    expect(json(await cli(['workflows', 'lint', v1]))).toEqual({ valid: true, problems: [] });

    const created = await cli(['workflows', 'apply', v1]);
    expect(created.code).toBe(0);
    expect(created.stderr).toMatch(/^created workflow wf_\S+ \(version 1\)/);
    const { id } = json(created);
    expect(json(await cli(['workflows', 'apply', v1]))).toMatchObject({ id, version: 1, changed: false });

    const v2 = await file('v2.json', definition('cli-flow', { description: 'second' }));
    const saved = await cli(['workflows', 'apply', v2]);
    expect(saved.stderr).toMatch(`saved version 2 of ${id}`);

    const listed = json(await cli(['workflows', 'list']));
    expect(listed.workflows.map((workflow: { id: string }) => workflow.id)).toEqual([id]);
    expect(json(await cli(['workflows', 'show', id, '--version', '1']))).toMatchObject({
      version: 1,
      definition: definition('cli-flow'),
    });
    expect(json(await cli(['workflows', 'show', id]))).toEqual((await call(key, 'GET', `/${id}`)).body);
    expect(await charges(key)).toEqual([]);
  });

  test('disable, enable and delete by id; a deleted workflow is then not found (exit code 5)', async () => {
    const key = await workspace();
    const cli = rdeAs(key);
    const { id } = json(await cli(['workflows', 'apply', await file('states.json', definition('cli-states'))]));
    expect(json(await cli(['workflows', 'disable', id]))).toMatchObject({ id, status: 'disabled' });
    expect((await call(key, 'GET', `/${id}`)).body.status).toBe('disabled');
    expect(json(await cli(['workflows', 'enable', id]))).toMatchObject({ id, status: 'enabled' });
    expect(json(await cli(['workflows', 'delete', id]))).toEqual({ ok: true, deleted: id });
    const gone = await cli(['workflows', 'show', id]);
    expect(gone.code).toBe(5);
    expect((await call(key, 'GET', `/${id}`)).status).toBe(404);
  });

  test('a definition with problems: lint lists each with its path and exits 6; apply is refused with the 422 shown readably and saves nothing', async () => {
    const key = await workspace();
    const cli = rdeAs(key);
    const broken = definition('cli-broken', {
      steps: [{ id: 'find', uses: 'search.people_search', with: { titles: ['{{steps.later.output.x}}'] } }],
    });
    const linted = await cli(['workflows', 'lint', await file('broken.json', broken)]);
    expect(linted.code).toBe(6);
    const problems = json(linted).problems as { path: string }[];
    expect(problems.map((problem) => problem.path)).toContain('/steps/0/with/titles/0');
    expect(linted.stderr).toBe(`rde: the definition has ${problems.length} problem(s)\n`);

    const applied = await cli(['workflows', 'apply', path.join(home, 'broken.json')]);
    expect(applied.code).toBe(6);
    expect(applied.stderr).toMatch(/^rde: 422:\n {2}\S/);
    expect((await call(key, 'GET', '')).body.total).toBe(0);
  });

  test('a file that is missing or not JSON is a usage error (exit 2) before any request; a bad key is exit 3', async () => {
    const key = await workspace();
    const cli = rdeAs(key);
    const missing = await cli(['workflows', 'apply', path.join(home, 'no-such.json')]);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toMatch(/^rde: cannot read .*no-such\.json/);
    const notJson = await cli(['workflows', 'lint', await file('not.json', '{"name": ')]);
    expect(notJson).toMatchObject({ code: 2 });
    expect(notJson.stderr).toMatch(/not\.json is not JSON/);
    expect((await rdeAs('rde_live_not-a-real-key-000000000000')(['workflows', 'list'])).code).toBe(3);
    expect((await call(key, 'GET', '')).body.total).toBe(0);
  });

  test('schema: the definition schema, and a step input schema by its uses, as the API answers them', async () => {
    const key = await workspace();
    const cli = rdeAs(key);
    expect(json(await cli(['workflows', 'schema']))).toEqual((await call(key, 'GET', '/schema')).body);
    const step = json(await cli(['workflows', 'schema', 'search.people_search']));
    expect(step).toEqual((await call(key, 'GET', '/schema?subject=search.people_search')).body);
    expect(step).toMatchObject({
      subject: 'search.people_search',
      schema: { properties: { limit: { type: 'integer' } } },
    });
    expect((await cli(['workflows', 'schema', 'no.such_method'])).code).toBe(5);
  });

  test('call --wait: the run succeeds, its steps are shown, and the balance moves by exactly its charge', async () => {
    const key = await workspace();
    const cli = rdeAs(key);
    const id = await applied(key, verifications('cli-paid', 2));
    const before = (await settled(key)).balance as number;

    const followed = await cli(['workflows', 'call', 'cli-paid', '--wait']);
    expect(followed.code).toBe(0);
    const done = json(followed);
    expect(done).toMatchObject({
      workflow_id: id,
      status: 'succeeded',
      mode: 'live',
      source: 'api',
      charged_credits: 2,
    });
    expect(done.steps.map((step: any) => [step.id, step.status, step.items])).toEqual([['verify', 'succeeded', 2]]);
    expect(done).toEqual(await run(key, id, done.id));
    expect(await runCharges(key, done.id)).toEqual([1, 1]);
    expect((await settled(key)).balance).toBe(before - done.charged_credits);
  });

  test('call: input from key=value pairs or a file, a dry run charges nothing; runs lists them newest first, run shows one by its id', async () => {
    const key = await workspace();
    const cli = rdeAs(key);
    const id = await applied(key, definition('cli-runs'));
    const dry = json(await cli(['workflows', 'call', 'cli-runs', 'city=Berlin', '--dry-run']));
    expect(dry).toMatchObject({ workflow_id: id, status: 'queued', mode: 'dry_run', input: { city: 'Berlin' } });
    const input = await file('input.json', { city: 'Paris' });
    const second = await cli(['workflows', 'call', id, '--input', input, '--dry-run', '--wait']);
    expect(json(second)).toMatchObject({ status: 'succeeded', input: { city: 'Paris' }, charged_credits: 0 });

    const newest = json(await cli(['workflows', 'runs', 'cli-runs', '--limit', '1']));
    expect(newest).toMatchObject({ offset: 0, limit: 1, total: 2 });
    expect(newest.runs.map((listed: { id: string }) => listed.id)).toEqual([json(second).id]);
    const older = json(await cli(['workflows', 'runs', id, '--offset', '1']));
    expect(older.runs.map((listed: { id: string }) => listed.id)).toEqual([dry.id]);
    expect(json(await cli(['workflows', 'runs']))).toEqual((await call(key, 'GET', '/runs')).body);

    const done = await ended(key, id, dry.id);
    expect(json(await cli(['workflows', 'run', dry.id]))).toEqual(done);
    expect(await charges(key)).toEqual([]);
  });

  test('a refused call shows the spec error readably and starts nothing; an unknown workflow or run is exit 5', async () => {
    const key = await workspace();
    const cli = rdeAs(key);
    const id = await applied(key, definition('cli-refused'));
    const refused = await cli(['workflows', 'call', 'cli-refused', 'city=B3rl1n', '--wait']);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toMatch(/^rde: 422:\n {2}body\.input\.city: \S/);
    const scripted = await cli(['--json', 'workflows', 'call', 'cli-refused']);
    expect(scripted.code).toBe(6);
    const [required] = JSON.parse(scripted.stderr).detail; // the body as the API answers it: city is required
    expect(required).toMatchObject({ loc: ['body', 'input'], msg: expect.stringContaining('city') });
    expect((await call(key, 'GET', `/${id}/runs`)).body.total).toBe(0);

    for (const args of [
      ['workflows', 'call', 'no-such-flow'],
      ['workflows', 'runs', 'no-such-flow'],
      ['workflows', 'run', 'wfr_000000000000000000000000'],
      ['workflows', 'cancel', 'wfr_000000000000000000000000', '--workflow', id],
    ]) {
      const missing = await cli(args);
      expect({ args, code: missing.code }).toEqual({ args, code: 5 });
    }
    expect(await charges(key)).toEqual([]);
  });

  test('apply of a webhook workflow prints its whole URL once; an event posted there starts a run that runs lists', async () => {
    const key = await workspace();
    const cli = rdeAs(key);
    const hooked = await file('hooked.json', verifications('cli-hooked', 1, { trigger: { type: 'webhook' } }));
    const created = await cli(['workflows', 'apply', hooked]);
    const { id, webhook_url: url } = json(created);
    expect(url).toMatch(new RegExp(`^${rde.baseUrl}/api/v2/webhooks/inbound/wh_[\\w-]{43}$`));
    expect(created.stderr).toContain(`webhook URL, shown this once (keep it secret; it is the only key): ${url}\n`);
    expect(json(await cli(['workflows', 'apply', hooked])).webhook_url).toBeUndefined();

    const fired = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(fired.status).toBe(202);
    const { run_id: runId } = (await fired.json()) as { run_id: string };
    await ended(key, id, runId);
    const listed = json(await cli(['workflows', 'runs', 'cli-hooked']));
    expect(listed.runs.map((r: any) => [r.id, r.source, r.status])).toEqual([[runId, 'webhook', 'succeeded']]);
  });

  test('cancel: the step in flight finishes and is billed, the rest is cancelled; run --wait follows it to that end (exit 9)', async () => {
    const key = await workspace();
    const cli = rdeAs(key);
    const id = await applied(key, {
      name: 'cli-cancel',
      trigger: { type: 'manual' },
      steps: [
        { id: 'slow', uses: 'verimail.verify', with: { email: 'slow@example.com' } },
        { id: 'never', uses: 'verimail.verify', with: { email: 'never@example.com' } },
      ],
    });
    await knobs('verimail', { latency_ms: { median: 4000, p95: 4000 } });
    let followed: Awaited<ReturnType<typeof cli>>;
    try {
      const queued = json(await cli(['workflows', 'call', 'cli-cancel']));
      await waitUntil(async () => (await run(key, id, queued.id)).steps[0].status === 'running', 60_000, 100);
      const cancelled = await cli(['workflows', 'cancel', queued.id]);
      expect(cancelled.code).toBe(0);
      expect(cancelled.stderr).toMatch(`cancel requested: run ${queued.id} stops before its next step`);
      expect(json(cancelled)).toMatchObject({ id: queued.id, status: 'running', cancel_requested: true });
      followed = await cli(['workflows', 'run', queued.id, '--workflow', 'cli-cancel', '--wait']);
      expect(followed.stderr).toBe(`rde: run ${queued.id} cancelled\n`);
    } finally {
      await resetKnobs();
    }
    expect(followed.code).toBe(9);
    const shown = json(followed);
    expect(shown.status).toBe('cancelled');
    expect(shown.steps.map((step: any) => [step.id, step.status, step.charged_credits])).toEqual([
      ['slow', 'succeeded', 1],
      ['never', 'cancelled', 0],
    ]);
    expect(sum(await runCharges(key, shown.id))).toBe(1);
  });
});
