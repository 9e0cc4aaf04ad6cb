import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { mcpClient } from '../e2e/mcp-client';
import { definition, workflowSupport } from './workflows-support';

jest.setTimeout(180_000);

/**
 * Workflow definitions (spec "Workflows", "States and transitions", Versioning 3; decision 0072):
 * apply by name as numbered versions, any version read back, enable/disable, delete, list, each
 * workspace seeing only its own; with two workflow replicas in distributed mode, concurrent applies
 * make exactly one version each. Definitions are free: the ledger stays empty.
 */
describe(`workflows: definitions (${mode})`, () => {
  let rde: RunningRde;
  const { workspace, charges, call, apply, list } = workflowSupport(() => rde);

  beforeAll(async () => {
    rde = await startRde({}, mode, { replicas: { workflow: 2 }, shared: true });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test('apply creates version 1 (201), an identical or reordered definition is changed: false, a change is version 2', async () => {
    const key = await workspace();
    const v1 = definition('find-and-score');
    const created = await apply(key, v1);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^wf_/),
      name: 'find-and-score',
      status: 'enabled',
      trigger: { type: 'manual' },
      version: 1,
      latest_version: 1,
      definition: v1,
      changed: true,
      created: true,
    });
    const id = created.body.id as string;
    const reordered = Object.fromEntries(Object.entries(v1).reverse());
    for (const same of [v1, reordered]) {
      const again = await apply(key, same);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id, version: 1, latest_version: 1, changed: false, created: false });
    }
    const v2 = { ...v1, description: 'now with a webhook', trigger: { type: 'webhook' } };
    const changed = await apply(key, v2);
    expect(changed.body).toMatchObject({
      id,
      version: 2,
      latest_version: 2,
      changed: true,
      created: false,
      trigger: { type: 'webhook' },
    });

    expect((await call(key, 'GET', `/${id}`)).body).toMatchObject({ version: 2, definition: v2 });
    expect((await call(key, 'GET', `/${id}?version=1`)).body).toMatchObject({
      version: 1,
      latest_version: 2,
      definition: v1,
    });
    const beyond = await call(key, 'GET', `/${id}?version=3`);
    expect(beyond.status).toBe(404);
    expect(beyond.body.detail).toContain('1 to 2');
    expect((await call(key, 'GET', `/${id}?version=0`)).status).toBe(422);
    expect((await call(key, 'GET', `/${id}?version=two`)).status).toBe(422);
    expect(await charges(key)).toEqual([]);
  });

  test('enable and disable move from any state, twice changing nothing more', async () => {
    const key = await workspace();
    const id = (await apply(key, definition('toggled'))).body.id as string;
    for (const [action, status] of [
      ['disable', 'disabled'],
      ['disable', 'disabled'],
      ['enable', 'enabled'],
      ['enable', 'enabled'],
      ['disable', 'disabled'],
    ]) {
      const moved = await call(key, 'POST', `/${id}/${action}`);
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ id, status, version: 1 });
    }
    expect((await call(key, 'GET', `/${id}`)).body.status).toBe('disabled');
    expect((await list(key)).workflows).toEqual([expect.objectContaining({ id, status: 'disabled' })]);
    // A new version keeps the state the workflow is in.
    expect((await apply(key, definition('toggled', { description: 'v2' }))).body).toMatchObject({
      version: 2,
      status: 'disabled',
    });
  });

  test('delete: gone from reads and the list, a second delete is 404, and the name is free for a new workflow', async () => {
    const key = await workspace();
    const id = (await apply(key, definition('short-lived'))).body.id as string;
    expect((await call(key, 'DELETE', `/${id}`)).body).toEqual({ ok: true, deleted: id });
    for (const [method, path] of [
      ['GET', `/${id}`],
      ['GET', `/${id}?version=1`],
      ['POST', `/${id}/enable`],
      ['DELETE', `/${id}`],
    ]) {
      expect((await call(key, method!, path!)).status).toBe(404);
    }
    expect((await list(key)).total).toBe(0);
    const again = await apply(key, definition('short-lived'));
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ version: 1, created: true });
    expect(again.body.id).not.toBe(id);
  });

  test('list: most recently changed first, 50 by default, offset and limit; 422 for a limit out of range', async () => {
    const key = await workspace();
    expect(await list(key)).toEqual({ workflows: [], offset: 0, limit: 50, total: 0 });
    const ids: string[] = [];
    for (const name of ['first', 'second', 'third']) ids.push((await apply(key, definition(name))).body.id as string);
    await apply(key, definition('first', { description: 'changed last' }));
    const listed = await list(key);
    expect(listed).toMatchObject({ offset: 0, limit: 50, total: 3 });
    expect(listed.workflows.map((workflow: { name: string }) => workflow.name)).toEqual(['first', 'third', 'second']);
    expect(listed.workflows[0]).toEqual({
      id: ids[0],
      name: 'first',
      description: 'changed last',
      status: 'enabled',
      trigger: { type: 'manual' },
      latest_version: 2,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const page = await list(key, '?offset=1&limit=1');
    expect(page).toMatchObject({
      offset: 1,
      limit: 1,
      total: 3,
      workflows: [expect.objectContaining({ name: 'third' })],
    });
    for (const query of ['?limit=0', '?limit=101', '?offset=-1'])
      expect((await call(key, 'GET', query)).status).toBe(422);
  });

  test("another workspace's workflow is 404 on every route, and the same name there is its own workflow", async () => {
    const owner = await workspace();
    const other = await workspace();
    const id = (await apply(owner, definition('private'))).body.id as string;
    for (const [method, path] of [
      ['GET', `/${id}`],
      ['POST', `/${id}/enable`],
      ['POST', `/${id}/disable`],
      ['DELETE', `/${id}`],
    ]) {
      expect((await call(other, method!, path!)).status).toBe(404);
    }
    expect((await list(other)).total).toBe(0);
    const theirs = await apply(other, definition('private'));
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(id);
    expect((await call(owner, 'GET', `/${id}`)).body).toMatchObject({ status: 'enabled', latest_version: 1 });
  });

  test('concurrent applies: identical ones make one workflow and one version, different ones one version each', async () => {
    const key = await workspace();
    const same = await Promise.all(Array.from({ length: 6 }, () => apply(key, definition('raced'))));
    expect(same.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(same.map((response) => response.body.id)).size).toBe(1);
    expect(same.every((response) => response.body.version === 1)).toBe(true);
    const id = same[0]!.body.id as string;

    const variants = Array.from({ length: 5 }, (_, n) => definition('raced', { description: `variant ${n}` }));
    const changed = await Promise.all(variants.map((variant) => apply(key, variant)));
    expect(changed.map((response) => response.body.version).sort()).toEqual([2, 3, 4, 5, 6]);
    for (const response of changed) {
      const stored = await call(key, 'GET', `/${id}?version=${response.body.version as number}`);
      expect(stored.body.definition).toEqual(response.body.definition);
    }
    expect((await call(key, 'GET', `/${id}`)).body.latest_version).toBe(6);
    expect((await list(key)).total).toBe(1);
  });

  test('MCP: list, lint and apply over the same RPCs as REST', async () => {
    const key = await workspace();
    const client = await mcpClient(rde, key);
    try {
      const tool = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args });
        return { isError: result.isError === true, body: result.structuredContent as Record<string, any> };
      };
      const broken = {
        ...definition('over-mcp'),
        output: {},
        steps: [{ id: 'a', uses: 'qualify', with: { job_spec: '{{steps.a.output.x}}', candidates: [] } }],
      };
      const linted = await tool('lint_workflow', broken);
      expect(linted.body).toEqual((await call(key, 'POST', '/lint', broken)).body);
      expect(linted.body.problems).toEqual([
        expect.objectContaining({ path: '/steps/0/with/job_spec', code: 'unknown_reference' }),
      ]);
      const refused = await tool('apply_workflow', broken);
      expect(refused.isError).toBe(true);
      const applied = await tool('apply_workflow', definition('over-mcp'));
      expect(applied.body).toMatchObject({ name: 'over-mcp', version: 1, created: true });
      expect((await tool('list_workflows', {})).body).toEqual(await list(key));
      expect((await call(key, 'GET', `/${applied.body.id as string}`)).body.definition).toEqual(definition('over-mcp'));
    } finally {
      await client.close();
    }
  });

  test('the schema route: the definition, a builtin step, a catalog method as GET /tools shows it; 404 for nothing', async () => {
    const key = await workspace();
    const document = await call(key, 'GET', '/schema');
    expect(document.status).toBe(200);
    expect(document.body).toMatchObject({
      subject: '',
      schema: { type: 'object', required: ['name', 'trigger', 'steps'] },
    });
    const search = await call(key, 'GET', '/schema?subject=search.people_search');
    expect(search.body.schema.properties).toHaveProperty('limit');
    const method = await call(key, 'GET', '/schema?subject=mailfinder.find');
    const contract = await api(rde, 'GET', '/tools/mailfinder/find', { key });
    expect(Object.keys(method.body.schema.properties)).toEqual(
      contract.body.inputs.map((input: { name: string }) => input.name),
    );
    expect(method.body.schema).toMatchObject({
      additionalProperties: false,
      allOf: [{ anyOf: [{ required: ['domain'] }, { required: ['company'] }] }],
    });
    expect((await call(key, 'GET', '/schema?subject=mailfinder.nosuch')).status).toBe(404);
  });
});
