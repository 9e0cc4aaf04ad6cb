import { RdeError } from '@rde/platform';
import { PROVIDERS } from '../src/providers';
import { WATERFALLS } from '../src/providers/waterfalls';
import { startCatalog, type CatalogUnderTest } from './support/catalog-under-test';

describe('catalog service: tools and contracts', () => {
  let catalogUnderTest: CatalogUnderTest;
  let client: CatalogUnderTest['client'];

  beforeAll(async () => {
    catalogUnderTest = await startCatalog();
    client = catalogUnderTest.client;
  });

  afterAll(() => catalogUnderTest?.stop());

  test('every declared vendor is listed as a data-provider tool with its methods, then the waterfalls', async () => {
    const { tools } = await client.listTools({ filter: '' });
    expect(tools.map((tool) => tool.name)).toEqual([
      ...PROVIDERS.map((provider) => provider.tool),
      ...WATERFALLS.map((waterfall) => waterfall.tool),
    ]);
    for (const tool of tools.slice(0, PROVIDERS.length)) {
      expect(tool.kind).toBe('data_provider');
      expect(tool.methods.length).toBeGreaterThan(0);
      expect(tool.chain).toEqual([]);
    }
  });

  test('people_search is listed as a waterfall with its chain, and its steps carry their capabilities', async () => {
    const { tools } = await client.listTools({ filter: 'waterfall' });
    expect(tools.map((tool) => tool.name)).toEqual([
      'people_search',
      'email_enrichment',
      'personal_email',
      'linkedin_profile',
      'phone_enrichment',
    ]);
    expect(tools[0]).toMatchObject({
      name: 'people_search',
      kind: 'waterfall',
      chain: ['pplgraph.search', 'prospectdb.search', 'webscout.search', 'linkscan.search'],
    });
    const { steps } = await client.getWaterfall({ tool: 'people_search' });
    expect(steps.map((step) => [step.tool, step.module, step.cost!.unit, step.maxRows])).toEqual([
      ['pplgraph', 'people_database', 'record', 100],
      ['prospectdb', 'people_database', 'hit', 25],
      ['webscout', 'web_people_search', 'call', 10],
      ['linkscan', 'linkedin_profile_search', 'call', 10],
    ]);
    const prospectdb = JSON.parse(steps[1].capabilitiesJson.toString('utf8'));
    expect(prospectdb).toMatchObject({ location_tokens: 'metro_code', silently_ignores: ['min_experience_years'] });
  });

  test('GetWaterfall of a name that is not a waterfall is 404', async () => {
    await expect(client.getWaterfall({ tool: 'pplgraph' })).rejects.toMatchObject({ httpStatus: 404 });
  });

  test('the filter narrows by module and by method name', async () => {
    const byModule = await client.listTools({ filter: 'people_database' });
    expect(byModule.tools.map((tool) => tool.name)).toContain('pplgraph');
    expect(byModule.tools.filter((tool) => tool.module !== 'people_database')).toEqual([]);
    const byMethod = await client.listTools({ filter: 'search' });
    const methodNames = byMethod.tools.flatMap((tool) => tool.methods.map((m) => m.name));
    expect(methodNames).toContain('search');
    expect(methodNames.filter((name) => !name.includes('search'))).toEqual([]);
    expect((await client.listTools({ filter: 'no-such-thing' })).tools).toEqual([]);
  });

  test('a method contract carries http, path, inputs, cost and the JSON body schema', async () => {
    const { tool, method } = await client.getMethod({ tool: 'pplgraph', method: 'search' });
    expect(tool!.name).toBe('pplgraph');
    expect(method).toMatchObject({ name: 'search', http: 'POST', path: '/v1/people/search', access: '' });
    expect(method!.inputs.map((input) => [input.name, input.type, input.required])).toEqual([
      ['query', 'object', true],
      ['size', 'integer', false],
      ['scroll_token', 'string', false],
    ]);
    expect(method!.cost).toMatchObject({ credits: '1', usd: '0.1', unit: 'record', amount: { millicredits: 1_000 } });
    const schema = JSON.parse(method!.payloadSchemaJson.toString('utf8'));
    expect(schema).toMatchObject({ type: 'object', required: ['query'], additionalProperties: false });
  });

  test("an asynchronous method's contract carries its job typed, the same as capabilities.job", async () => {
    const { method } = await client.getMethod({ tool: 'bulkmail', method: 'submit' });
    const declared = JSON.parse(method!.capabilitiesJson.toString('utf8')).job;
    expect(method!.job).toEqual({
      poll: declared.poll,
      idField: declared.id_field,
      callbackParameter: declared.callback_parameter,
      statePath: declared.state_path,
      doneState: declared.done_state,
      batch: {
        maxSize: declared.batch.max_size,
        itemsParameter: declared.batch.items_parameter,
        correlationField: declared.batch.correlation_field,
        resultsPath: declared.batch.results_path,
      },
    });
    // Its poll method is no job of its own.
    expect((await client.getMethod({ tool: 'bulkmail', method: declared.poll })).method!.job).toBeUndefined();
  });

  test('a flat `<tool>_<method>` name resolves to the method view', async () => {
    const { tool, resolvedMethod } = await client.getTool({ tool: 'pplgraph_search' });
    expect(resolvedMethod).toBe('search');
    expect(tool!.name).toBe('pplgraph');
    expect(tool!.methods.map((m) => m.name)).toEqual(['search']);
  });

  test('a tool by its own name has all its methods', async () => {
    const { tool, resolvedMethod } = await client.getTool({ tool: 'pplgraph' });
    expect(resolvedMethod).toBe('');
    expect(tool!.methods.length).toBe(PROVIDERS.find((p) => p.tool === 'pplgraph')!.methods.length);
  });

  test('unknown tools, flat names and methods are 404', async () => {
    for (const request of [
      client.getTool({ tool: 'nope' }),
      client.getTool({ tool: 'pplgraph_nope' }),
      client.getMethod({ tool: 'pplgraph', method: 'nope' }),
    ]) {
      await expect(request).rejects.toMatchObject({ httpStatus: 404 });
      await expect(request).rejects.toBeInstanceOf(RdeError);
    }
  });
});

describe('provider declarations', () => {
  const methods = PROVIDERS.flatMap((provider) => provider.methods.map((method) => ({ provider, method })));

  test('tool names are unique, and no flat name is ambiguous', () => {
    const tools = PROVIDERS.map((p) => p.tool);
    expect(new Set(tools).size).toBe(tools.length);
    const flat = methods.map(({ provider, method }) => `${provider.tool}_${method.name}`);
    expect(new Set([...flat, ...tools]).size).toBe(flat.length + tools.length);
  });

  test.each(methods.map(({ provider, method }) => [`${provider.tool}.${method.name}`, provider, method] as const))(
    '%s is consistent',
    (_name, provider, method) => {
      const names = method.parameters.map((p) => p.name);
      if (typeof method.job === 'object') {
        const poll = provider.methods.find((m) => m.name === (method.job as { poll: string }).poll);
        expect(poll?.job).toBe('poll');
        expect(poll?.parameters.map((p) => p.name)).toEqual([method.job.id_field]);
        expect(names).toContain(method.job.callback_parameter);
        if (method.job.batch) expect(names).toContain(method.job.batch.items_parameter);
      }
      for (const [, pathParameter] of method.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g))
        expect(names).toContain(pathParameter);
      if (method.rows?.countParameter) expect(names).toContain(method.rows.countParameter);
      for (const group of method.oneOfRequired ?? []) for (const name of group) expect(names).toContain(name);
      if (method.cost.unit === 'record') expect(method.rows).toBeDefined();
      // A job's hit is read from its finished result, not from the submit answer.
      if (method.cost.unit === 'hit' && !method.job) expect(method.hitPath).toBeDefined();
      expect(Number.isInteger(method.cost.millicredits) && method.cost.millicredits >= 0).toBe(true);
    },
  );
});
