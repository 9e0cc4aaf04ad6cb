import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { declaredPost, definition, workflowSupport } from './workflows-support';

jest.setTimeout(180_000);

/**
 * Workflow lint (spec "Workflows", decision 0073): the fixed schema, then every semantic rule, each
 * problem answered with a JSON Pointer into the document; the schema route an agent writes from;
 * hostile definitions refused with nothing stored and nothing charged.
 */
describe(`workflows: lint and schema (${mode})`, () => {
  let rde: RunningRde;
  const { workspace, charges, lint, apply, list, call } = workflowSupport(() => rde);
  let key: string;

  beforeAll(async () => {
    rde = await startRde({}, mode, { shared: true });
    key = await workspace();
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const base = definition('lint-me');
  const withSteps = (...steps: object[]) => ({ ...base, steps, output: {} });
  const codes = (problems: { path: string; code: string }[]) => problems.map(({ path, code }) => ({ path, code }));

  test('a valid definition using every reference kind lints clean, also as a bare {config, trigger}', async () => {
    expect(await lint(key, base)).toEqual({ valid: true, problems: [] });
    const { trigger, ...config } = base;
    expect(await lint(key, { config, trigger })).toEqual({ valid: true, problems: [] });
  });

  test('the fixed schema: each problem at its path, a misspelt key with a "did you mean"', async () => {
    const { problems, valid } = await lint(key, { ...base, trigger: { type: 'cron' }, stpes: [] });
    expect(valid).toBe(false);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: '/trigger/type',
          code: 'schema',
          message: expect.stringContaining('manual, webhook'),
        }),
        expect.objectContaining({
          path: '/stpes',
          code: 'schema',
          message: expect.stringContaining("did you mean 'steps'"),
        }),
      ]),
    );
    const { trigger, ...config } = base;
    const bare = await lint(key, { config: { ...config, steps: [{ id: 'x' }] }, trigger });
    expect(codes(bare.problems)).toEqual([{ path: '/config/steps/0/uses', code: 'schema' }]);
  });

  test('step ids are unique', async () => {
    const step = { id: 'find', uses: 'search.people_search', with: { titles: ['CTO'] } };
    expect(codes((await lint(key, withSteps(step, step))).problems)).toEqual([
      { path: '/steps/1/id', code: 'duplicate_step_id' },
    ]);
  });

  test('references name the input, the run, an earlier step, or the item of a for_each step', async () => {
    const { problems } = await lint(
      key,
      withSteps(
        {
          id: 'a',
          uses: 'search.people_search',
          with: { titles: ['{{steps.b.output.x}}'], keywords: ['{{item.name}}'] },
        },
        {
          id: 'b',
          uses: 'search.people_search',
          with: { titles: ['{{steps.b.output.x}}'], company_names: ['{{nothing.here}}'] },
        },
      ),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        path: '/steps/0/with/titles/0',
        code: 'unknown_reference',
        message: expect.stringContaining("'b' is not an earlier step"),
      }),
      expect.objectContaining({
        path: '/steps/0/with/keywords/0',
        code: 'unknown_reference',
        message: expect.stringContaining('for_each'),
      }),
      expect.objectContaining({ path: '/steps/1/with/titles/0', code: 'unknown_reference' }),
      expect.objectContaining({ path: '/steps/1/with/company_names/0', code: 'invalid_reference' }),
    ]);
  });

  test('__proto__, constructor and prototype paths are refused, never followed', async () => {
    for (const path of ['input.__proto__.polluted', 'steps.a.output.constructor', 'input.x.prototype', 'input.a[0]']) {
      const { problems } = await lint(
        key,
        withSteps(
          { id: 'a', uses: 'search.people_search', with: { titles: ['CTO'] } },
          { id: 'b', uses: 'search.people_search', with: { titles: [`{{${path}}}`] } },
        ),
      );
      expect(codes(problems)).toEqual([{ path: '/steps/1/with/titles/0', code: 'invalid_reference' }]);
    }
  });

  test('every uses exists: an unknown method or name is refused with what a step can use', async () => {
    const { problems } = await lint(
      key,
      withSteps({ id: 'a', uses: 'mailfinder.nosuch', with: {} }, { id: 'b', uses: 'rm -rf', with: {} }),
    );
    expect(codes(problems)).toEqual([
      { path: '/steps/0/uses', code: 'unknown_uses' },
      { path: '/steps/1/uses', code: 'unknown_uses' },
    ]);
    expect(problems[0].message).toContain('search.people_search');
  });

  test('with is checked as the tools check a payload: the same unknown, missing and expected as POST /tools', async () => {
    const payload = { first_name: 'Ada', surname: 'Lovelace' };
    const tools = await api(rde, 'POST', '/tools/mailfinder/find', { key, body: { payload } });
    expect(tools.status).toBe(400);
    const { problems } = await lint(key, withSteps({ id: 'mail', uses: 'mailfinder.find', with: payload }));
    expect(problems).toEqual([
      expect.objectContaining({
        path: '/steps/0/with',
        code: 'invalid_payload',
        unknown: tools.body.unknown,
        missing: tools.body.missing,
        missing_one_of: tools.body.missing_one_of,
        expected: tools.body.expected,
      }),
    ]);
    const wrongType = await lint(key, withSteps({ id: 'q', uses: 'qualify', with: { job_spec: 7, candidates: [] } }));
    expect(wrongType.problems).toEqual([
      expect.objectContaining({
        path: '/steps/0/with',
        code: 'invalid_payload',
        invalid: [expect.objectContaining({ key: 'job_spec' })],
      }),
    ]);
    expect(await charges(key)).toEqual([]);
  });

  test('for_each is bounded: at most max_items (100) literal items, or one reference', async () => {
    const step = (items: unknown, maxItems?: number) => ({
      id: 'each',
      uses: 'search.people_search',
      with: { titles: ['{{item}}'] },
      for_each: { items, ...(maxItems && { max_items: maxItems }) },
    });
    expect((await lint(key, withSteps(step(['a', 'b', 'c'], 2)))).problems).toEqual([
      expect.objectContaining({ path: '/steps/0/for_each/items', code: 'for_each_unbounded' }),
    ]);
    expect(codes((await lint(key, withSteps(step(Array(101).fill('x'))))).problems)).toEqual([
      { path: '/steps/0/for_each/items', code: 'for_each_unbounded' },
    ]);
    expect(codes((await lint(key, withSteps(step('all of them')))).problems)).toEqual([
      { path: '/steps/0/for_each/items', code: 'for_each_unbounded' },
    ]);
    expect(codes((await lint(key, withSteps(step(['x'], 500)))).problems)).toEqual([
      { path: '/steps/0/for_each/max_items', code: 'schema' },
    ]);
  });

  test('conditions are data: no var, no method, nothing but the comparison and boolean operators', async () => {
    const step = (condition: unknown) => ({
      id: 's',
      uses: 'search.people_search',
      with: { titles: ['CTO'] },
      if: condition,
    });
    expect(
      (await lint(key, withSteps(step({ and: [{ '==': ['{{input.city}}', 'Berlin'] }, { '!': [false] }] })))).valid,
    ).toBe(true);
    for (const condition of [{ method: ['x', 'constructor'] }, { var: 'input.city' }, { '==': [1, 1], '!=': [1, 2] }]) {
      expect(codes((await lint(key, withSteps(step(condition)))).problems)).toEqual([
        { path: '/steps/0/if', code: 'invalid_condition' },
      ]);
    }
  });

  test("the input schema: Ajv's secure meta-schema, no backtracking regex, compiles strictly", async () => {
    const withInput = (properties: object) => ({ ...base, input: { schema: { type: 'object', properties } } });
    const cases: [object, string][] = [
      [{ x: { type: 'string', maxLength: 50, pattern: '^(a+)+$' } }, '/input/schema/properties/x/pattern'],
      [{ x: { type: 'string', pattern: '^[a-z]+$' } }, '/input/schema/properties/x'],
      [{ x: { type: 'strnig' } }, '/input/schema/properties/x/type'],
      [{ x: { $ref: 'https://example.com/evil.json' } }, '/input/schema'],
    ];
    for (const [properties, path] of cases) {
      const { problems } = await lint(key, withInput(properties));
      expect(problems).toEqual([expect.objectContaining({ path, code: 'invalid_input_schema' })]);
    }
  });

  test('hostile documents are refused before lint: a __proto__ key, 10 MB, deep nesting; nothing is stored', async () => {
    const proto = JSON.stringify(base).replace('"titles"', '"__proto__":{"polluted":true},"titles"');
    const polluted = await fetch(`${rde.baseUrl}/api/v2/workflows/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: proto,
    });
    expect(polluted.status).toBe(400);
    expect(await declaredPost(`${rde.baseUrl}/api/v2/workflows/apply`, key, 10 * 1024 * 1024)).toBe(413);
    let deep: unknown = 1;
    for (let level = 0; level < 200; level += 1) deep = { a: deep };
    const tooDeep = await apply(key, { ...base, output: deep });
    expect(tooDeep.status).toBe(422);
    expect(tooDeep.body.detail).toEqual([expect.objectContaining({ type: 'max_depth' })]);
    expect((await call(key, 'POST', '/lint', JSON.parse(proto.replace('__proto__', 'fine')))).status).toBe(200);
    expect((await list(key)).total).toBe(0);
    expect(await charges(key)).toEqual([]);
  });

  test('apply is gated by lint: 422 with each problem at its loc and path, nothing stored', async () => {
    const refused = await apply(
      key,
      withSteps(
        { id: 'a', uses: 'search.people_search', with: { titles: ['{{steps.later.output.x}}'] } },
        { id: 'later', uses: 'qualify', with: { job_spec: 'x', candidates: [] } },
      ),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'steps', 0, 'with', 'titles', 0],
        type: 'unknown_reference',
        path: '/steps/0/with/titles/0',
      }),
    ]);
    expect((await list(key)).total).toBe(0);
  });
});
