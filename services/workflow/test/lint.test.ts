import { publicSchemas } from '@rde/proto';
import { SemanticLint, type StepSchemas } from '../src/domain/lint';
import { DefinitionShape } from '../src/domain/shape';

const shape = new DefinitionShape();
const semantics = new SemanticLint();
const schemas: StepSchemas = new Map<string, Record<string, unknown>>([
  ['search.people_search', publicSchemas.searchBody],
  ['qualify', publicSchemas.qualifyBody],
]);

function problemsOf(document: object) {
  const shaped = shape.check(JSON.stringify(document), { allowBare: true });
  if (!shaped.ok) return shaped.problems.map(({ path, code }) => ({ path, code }));
  return semantics.problems(shaped.definition, schemas).map(({ path, code }) => ({ path, code }));
}

const search = (id: string, titles: string[]) => ({ id, uses: 'search.people_search', with: { titles } });
const workflow = (...steps: object[]) => ({ name: 'w', trigger: { type: 'manual' }, steps });

describe('workflow lint (domain)', () => {
  test('a definition with an input, earlier steps, the run id and items is clean', () => {
    expect(
      problemsOf({
        ...workflow(search('a', ['{{input.title}}']), {
          id: 'b',
          uses: 'qualify',
          for_each: { items: '{{steps.a.output.results}}' },
          with: { job_spec: 'run {{run.id}}', candidates: ['{{item}}'] },
        }),
        input: { schema: { type: 'object', properties: { title: { type: 'string', maxLength: 100 } } } },
      }),
    ).toEqual([]);
  });

  test('a later step, an unknown root and a prototype path are each refused at their place', () => {
    expect(
      problemsOf(
        workflow(search('a', ['{{steps.b.output.x}}', '{{env.HOME}}', '{{input.__proto__}}']), search('b', ['x'])),
      ),
    ).toEqual([
      { path: '/steps/0/with/titles/0', code: 'unknown_reference' },
      { path: '/steps/0/with/titles/1', code: 'invalid_reference' },
      { path: '/steps/0/with/titles/2', code: 'invalid_reference' },
    ]);
  });

  test('nesting past the limit is refused before any schema check', () => {
    const deep = JSON.parse(`${'['.repeat(100)}${']'.repeat(100)}`) as unknown;
    expect(problemsOf({ ...workflow(search('a', ['x'])), output: { deep } })).toEqual([{ path: '', code: 'too_deep' }]);
  });

  test('a backtracking pattern, and one without maxLength, in the input schema', () => {
    const input = (x: object) => ({
      ...workflow(search('a', ['x'])),
      input: { schema: { type: 'object', properties: { x } } },
    });
    expect(problemsOf(input({ type: 'string', maxLength: 9, pattern: '(x+x+)+y' }))).toEqual([
      { path: '/input/schema/properties/x/pattern', code: 'invalid_input_schema' },
    ]);
    expect(problemsOf(input({ type: 'string', pattern: 'x' }))).toEqual([
      { path: '/input/schema/properties/x', code: 'invalid_input_schema' },
    ]);
  });
});
