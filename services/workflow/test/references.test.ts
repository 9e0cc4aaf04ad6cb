import { parseReference, resolveValue, walk } from '../src/domain/references';

const scope = {
  input: { city: 'Berlin', tags: ['a', 'b'] },
  runId: 'wfr_1',
  outputs: new Map<string, unknown>([['find', { results: [{ name: 'Ada' }], count: 1 }]]),
  item: { name: 'Ada' },
};

describe('references (domain)', () => {
  test('a whole-string reference is the value itself; inside text it is written in as text', () => {
    expect(
      resolveValue(
        {
          people: '{{steps.find.output.results}}',
          n: '{{ steps.find.output.count }}',
          note: 'run {{run.id}} in {{input.city}}',
          who: '{{item.name}}',
          first: '{{input.tags.0}}',
        },
        scope,
      ),
    ).toEqual({ people: [{ name: 'Ada' }], n: 1, note: 'run wfr_1 in Berlin', who: 'Ada', first: 'a' });
  });

  test('only own properties are followed: no prototype, no inherited method, no getter of a class', () => {
    const polluted = Object.create({ inherited: 'secret' }) as Record<string, unknown>;
    expect(walk(polluted, ['inherited'])).toBeUndefined();
    expect(walk({}, ['constructor'])).toBeUndefined();
    expect(walk({ a: 'x' }, ['a', 'length'])).toBeUndefined();
    expect(walk([1, 2], ['length'])).toBeUndefined();
    expect(resolveValue('{{input.__proto__}}', scope)).toBeUndefined();
    expect(resolveValue('x{{input.nothing}}y', scope)).toBe('xy');
  });

  test('what a reference may be', () => {
    expect(parseReference('steps.a.output')).toEqual({ ok: true, reference: { kind: 'step', stepId: 'a', path: [] } });
    expect(parseReference('run.id')).toEqual({ ok: true, reference: { kind: 'run_id' } });
    for (const text of ['steps.a', 'run.other', 'process.env', 'input.a[0]', 'input..a', 'input.constructor']) {
      expect(parseReference(text).ok).toBe(false);
    }
  });
});
