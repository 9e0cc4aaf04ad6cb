import { RdeError } from '@rde/platform';
import { Catalog } from '../src/domain/catalog';
import { ParameterResolver } from '../src/domain/parameters';
import { actualCost, dryRunEstimate, formatCredits, formatUsd, worstCaseCost } from '../src/domain/pricing';
import { isPresentAt, replaceAt, rowsAt } from '../src/domain/rows';
import { OTHER_PROVIDER, TEST_PROVIDER } from './fixtures';

const [search, lookup, validate] = TEST_PROVIDER.methods;

/** The error a call throws: its HTTP status and public body. */
function refusal(call: () => unknown): { status: number; body: Record<string, unknown> } {
  try {
    call();
  } catch (error) {
    if (error instanceof RdeError) return { status: error.httpStatus, body: error.body };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parameters', () => {
  const resolver = new ParameterResolver();

  test('payload, args and kwargs combine into the parameters; required ones become args', () => {
    const resolved = resolver.resolve(search, { args: [['CTO']], kwargs: { limit: 5 } });
    expect(resolved.values).toEqual({ titles: ['CTO'], limit: 5 });
    expect(resolved.args).toEqual([['CTO']]);
    expect(resolved.kwargs).toEqual({ limit: 5 });
  });

  test('an unknown key on a strict method is refused with unknown and expected', () => {
    expect(refusal(() => resolver.resolve(lookup, { payload: { linkedin_url: 'u', name: 'x' } }))).toEqual({
      status: 400,
      body: { error: 'invalid_payload', unknown: ['name'], expected: ['linkedin_url'] },
    });
  });

  test('a missing required key is refused with missing and expected', () => {
    expect(refusal(() => resolver.resolve(lookup, { payload: {} }))).toEqual({
      status: 400,
      body: { error: 'invalid_payload', missing: ['linkedin_url'], expected: ['linkedin_url'] },
    });
  });

  test('payload keys named like Object.prototype members (constructor, toString) are unknown keys, never duplicates', () => {
    expect(
      refusal(() => resolver.resolve(lookup, { payload: { linkedin_url: 'u', constructor: 1, toString: 'x' } })),
    ).toEqual({
      status: 400,
      body: { error: 'invalid_payload', unknown: ['constructor', 'toString'], expected: ['linkedin_url'] },
    });
    const passed = resolver.resolve(search, { payload: { titles: ['CTO'], constructor: 1 } });
    expect(passed.kwargs).toEqual({ constructor: 1 });
  });

  test('unknown and missing keys are reported together', () => {
    expect(refusal(() => resolver.resolve(validate, { payload: { mail: 'a@b.c' } })).body).toEqual({
      error: 'invalid_payload',
      unknown: ['mail'],
      missing: ['email'],
      expected: ['email'],
    });
  });

  test('a method taking vendor options passes unknown keys through', () => {
    const resolved = resolver.resolve(search, { payload: { titles: ['CTO'], vendor_flag: true } });
    expect(resolved.values).toEqual({ titles: ['CTO'], vendor_flag: true });
    expect(resolved.kwargs).toEqual({ vendor_flag: true });
  });

  test('a value of the wrong type is refused naming the key', () => {
    const { status, body } = refusal(() => resolver.resolve(search, { payload: { titles: 'CTO', limit: 500 } }));
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_payload');
    expect((body.invalid as { key: string }[]).map((issue) => issue.key).sort()).toEqual(['limit', 'titles']);
  });

  test('a group none of which is given is refused with missing_one_of', () => {
    const method = {
      ...lookup,
      parameters: [...lookup.parameters, { name: 'name', type: 'string' as const, description: 'a name' }],
      oneOfRequired: [['linkedin_url', 'name']],
    };
    expect(
      refusal(() =>
        resolver.resolve(
          { ...method, parameters: method.parameters.map((p) => ({ ...p, required: false })) },
          { payload: {} },
        ),
      ).body,
    ).toEqual({
      error: 'invalid_payload',
      missing_one_of: [['linkedin_url', 'name']],
      expected: ['linkedin_url', 'name'],
    });
  });

  test('a key given twice is refused', () => {
    expect(refusal(() => resolver.resolve(lookup, { args: ['a'], payload: { linkedin_url: 'b' } })).body).toEqual({
      error: 'invalid_payload',
      duplicate: ['linkedin_url'],
      expected: ['linkedin_url'],
    });
  });

  test('more positional args than parameters are refused', () => {
    const { body } = refusal(() => resolver.resolve(lookup, { args: ['a', 'b'] }));
    expect(body).toMatchObject({ error: 'invalid_payload', expected: ['linkedin_url'] });
    expect(body.detail).toMatch(/2 positional args/);
  });
});

describe('pricing', () => {
  test('a per-record method reserves the requested rows, or its default page', () => {
    expect(worstCaseCost(search, { titles: [], limit: 7 })).toBe(3_500);
    expect(worstCaseCost(search, { titles: [] })).toBe(5_000);
  });

  test('per-call and per-hit methods reserve one unit', () => {
    expect(worstCaseCost(lookup, {})).toBe(2_000);
    expect(worstCaseCost(validate, {})).toBe(50);
  });

  test('a dry run prices one unit and, per record, the worst case', () => {
    expect(dryRunEstimate(search, { titles: [], limit: 40 })).toEqual({ wouldCharge: 500, wouldChargeMax: 20_000 });
    expect(dryRunEstimate(lookup, {})).toEqual({ wouldCharge: 2_000 });
  });

  test('the charge follows the unit: returned rows, hits, calls; never above the reserve', () => {
    expect(actualCost(search, { limit: 5 }, { rowCount: 3, hit: true })).toBe(1_500);
    expect(actualCost(search, { limit: 5 }, { rowCount: 9, hit: true })).toBe(2_500);
    expect(actualCost(search, { limit: 5 }, { rowCount: 0, hit: false })).toBe(0);
    expect(actualCost(lookup, {}, { rowCount: 0, hit: false })).toBe(0);
    expect(actualCost(lookup, {}, { rowCount: 0, hit: true })).toBe(2_000);
    expect(actualCost(validate, {}, { rowCount: 0, hit: false })).toBe(50);
  });

  test('credits and dollars format exactly', () => {
    expect(formatCredits(1_500)).toBe('1.5');
    expect(formatCredits(50)).toBe('0.05');
    expect(formatCredits(2_000)).toBe('2');
    expect(formatUsd(50, 10)).toBe('0.005');
    expect(formatUsd(2_000, 10)).toBe('0.2');
  });
});

describe('catalog', () => {
  const catalog = new Catalog([TEST_PROVIDER, OTHER_PROVIDER]);

  test('an empty filter lists every tool with all its methods', () => {
    expect(catalog.list('').map((entry) => [entry.provider.tool, entry.methods.length])).toEqual([
      ['people_db_x', 4],
      ['phone_x', 1],
    ]);
  });

  test('a filter on the tool, kind or module keeps whole tools', () => {
    expect(catalog.list('PHONE').map((entry) => entry.provider.tool)).toEqual(['phone_x']);
    expect(catalog.list('people_search').map((entry) => entry.provider.tool)).toEqual(['people_db_x']);
    expect(catalog.list('data_provider')).toHaveLength(2);
  });

  test('a filter on a method name keeps only matching methods', () => {
    const entries = catalog.list('valid');
    expect(entries.map((entry) => [entry.provider.tool, entry.methods.map((m) => m.name)])).toEqual([
      ['people_db_x', ['validate_email']],
    ]);
    expect(catalog.list('nothing-matches')).toEqual([]);
  });

  test('a flat name resolves to its method, whatever underscores the tool name holds', () => {
    expect(catalog.resolveFlatName('people_db_x_validate_email')?.method.name).toBe('validate_email');
    expect(catalog.resolveFlatName('phone_x_lookup')?.provider.tool).toBe('phone_x');
    expect(catalog.resolveFlatName('people_db_x_nope')).toBeUndefined();
  });

  test('unknown tools and methods are 404s', () => {
    expect(refusal(() => catalog.tool('nope'))).toEqual({ status: 404, body: { detail: 'unknown tool: nope' } });
    expect(refusal(() => catalog.method('phone_x', 'search'))).toEqual({
      status: 404,
      body: { detail: 'unknown method: phone_x.search' },
    });
  });
});

describe('rows', () => {
  const answer = { total: 300, data: { people: [{ a: 1 }, { a: 2 }], cursor: 'c2' } };

  test('rows are found at their path only when they are a list of objects', () => {
    expect(rowsAt(answer, ['data', 'people'])).toHaveLength(2);
    expect(rowsAt(answer, ['data', 'cursor'])).toBeUndefined();
    expect(rowsAt({ data: { people: [1, 2] } }, ['data', 'people'])).toBeUndefined();
  });

  test('replacing the rows keeps the metadata beside them', () => {
    expect(replaceAt(answer, ['data', 'people'], { id: 'ds_1' })).toEqual({
      total: 300,
      data: { people: { id: 'ds_1' }, cursor: 'c2' },
    });
    expect(answer.data.people).toHaveLength(2);
  });

  test('a hit is a present, non-empty value', () => {
    expect(isPresentAt({ person: { name: 'x' } }, ['person'])).toBe(true);
    expect(isPresentAt({ person: null }, ['person'])).toBe(false);
    expect(isPresentAt({ person: {} }, ['person'])).toBe(false);
    expect(isPresentAt({ emails: [] }, ['emails'])).toBe(false);
  });
});
