import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildClientArchive } from '@rde/client';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { runClient } from '../support/rde-client';
import { definition, workflowSupport } from './workflows-support';

jest.setTimeout(180_000);

/**
 * Distribution (issue 27): `rde workflows …` in the released client, against RDE — lint and apply a
 * definition file, list, show a version, disable, enable, delete — with the spec's errors shown
 * readably and each error class's exit code. Definitions are free: the ledger stays empty.
 */
describe(`Distribution: rde workflows (${mode})`, () => {
  let rde: RunningRde;
  let home: string;
  let client: string;
  const { workspace, charges, call } = workflowSupport(() => rde);

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
});
