import { isRunId, RdeError } from '@rde/platform';
import { chunksOf, hashRows, newRowsHash, rowsCovered, runReplayKeyOf, sliceOf } from '../src/domain/runs/plan';
import { runRequestOf } from '../src/domain/runs/request';
import { toolArgsOf, toolCallRunIdOf } from '../src/domain/runs/tool-steps';

/** The 422's validation list of a body, or [] when it is accepted. */
function issuesOf(body: Record<string, unknown>): string[] {
  try {
    runRequestOf(body);
    return [];
  } catch (error) {
    if (!(error instanceof RdeError)) throw error;
    expect(error.httpStatus).toBe(422);
    return (error.body.detail as { loc: (string | number)[] }[]).map((issue) => issue.loc.join('.'));
  }
}

const rows = [{ name: 'Ada Lovelace', company_domain: 'acme.com' }];

describe('decision 0031: a run request is read before anything is spent', () => {
  test('steps by name or as {capability}, under any of the three names; the modes', () => {
    expect(runRequestOf({ input_rows: rows, steps: ['email_enrichment'] })).toMatchObject({
      steps: ['email_enrichment'],
      mode: 'run',
      inPlace: false,
      detach: false,
    });
    expect(
      runRequestOf({ input: 'ds_abc', specs: [{ capability: 'phone_enrichment' }], estimate: true }),
    ).toMatchObject({ input: 'ds_abc', steps: ['phone_enrichment'], mode: 'estimate' });
    expect(runRequestOf({ input_rows: rows, waterfalls: ['personal_email'], preview: true }).mode).toBe('preview');
  });

  test('a tool.method step maps its arguments from row columns', () => {
    const steps = [
      'email_enrichment',
      { tool: 'mailfinder', method: 'find', args: { first_name: 'first', domain: { column: 'company_domain' } } },
    ];
    expect(runRequestOf({ input_rows: rows, steps }).steps).toEqual([
      'email_enrichment',
      { tool: 'mailfinder', method: 'find', args: { first_name: 'first', domain: 'company_domain' } },
    ]);
    expect(runRequestOf({ input_rows: rows, steps: ['dialbook.lookup'] }).steps).toEqual([
      { tool: 'dialbook', method: 'lookup', args: {} },
    ]);
    expect(
      issuesOf({ input_rows: rows, steps: [{ tool: 'mailfinder', method: 'find', args: { domain: 3 } }] }),
    ).toEqual(['body.steps.0']);
  });

  test('a tool step sends the mapped columns that hold a value, under a catalog run id fixed by run, row and step', () => {
    const step = { tool: 'mailfinder', method: 'find', args: { first_name: 'first', domain: 'site' } };
    expect(toolArgsOf(step, { first: 'Ada', site: '', other: 1 })).toEqual({ first_name: 'Ada' });
    const id = toolCallRunIdOf('enr_1', 7, 'mailfinder.find');
    expect(isRunId(id)).toBe(true);
    // A redelivered chunk calls again under the same id: catalog answers its stored outcome, uncharged.
    expect(toolCallRunIdOf('enr_1', 7, 'mailfinder.find')).toBe(id);
    expect(
      new Set([id, toolCallRunIdOf('enr_1', 8, 'mailfinder.find'), toolCallRunIdOf('enr_2', 7, 'mailfinder.find')])
        .size,
    ).toBe(3);
  });

  test('every problem is one item of the list', () => {
    expect(issuesOf({ input_rows: rows })).toEqual(['body.steps']);
    expect(issuesOf({ input: 'ds_a', input_rows: rows, steps: ['email_enrichment'] })).toEqual(['body.input']);
    expect(issuesOf({ input_rows: rows, steps: ['email_enrichment', 'email_enrichment'] })).toEqual(['body.steps.1']);
    expect(issuesOf({ input_rows: rows, steps: [{ tool: 'mailfinder' }, 'nope'] })).toEqual([
      'body.steps.0',
      'body.steps.1',
    ]);
    expect(issuesOf({ input_rows: [1, rows[0]], steps: ['email_enrichment'], range: '9:3', detach: 'yes' })).toEqual([
      'body.input_rows.0',
      'body.range',
      'body.detach',
    ]);
    expect(issuesOf({ input_rows: rows, steps: ['email_enrichment'], in_place: true })).toEqual(['body.in_place']);
    expect(issuesOf({ input: '../etc', steps: ['email_enrichment'] })).toEqual(['body.input']);
  });

  test('range: START:END, either side optional, clamped to the rows', () => {
    expect(runRequestOf({ input_rows: rows, steps: ['email_enrichment'], range: ':5' }).range).toEqual({
      start: 0,
      end: 5,
    });
    expect(runRequestOf({ input_rows: rows, steps: ['email_enrichment'], range: '3:' }).range).toEqual({ start: 3 });
    expect(sliceOf({ start: 3 }, 10)).toEqual({ start: 3, end: 10 });
    expect(sliceOf({ start: 5, end: 50 }, 10)).toEqual({ start: 5, end: 10 });
    expect(sliceOf({ start: 20 }, 10)).toEqual({ start: 10, end: 10 });
    expect(sliceOf(undefined, 7)).toEqual({ start: 0, end: 7 });
  });
});

describe('decision 0032: chunks, budget and replay keys', () => {
  test('a slice is cut into consecutive chunks of at most the chunk size', () => {
    expect(chunksOf({ start: 5, end: 30 }, 10)).toEqual([
      { start: 5, end: 15 },
      { start: 15, end: 25 },
      { start: 25, end: 30 },
    ]);
    expect(chunksOf({ start: 4, end: 4 }, 10)).toEqual([]);
  });

  test('rule 2: rows covered by the available credits at the worst case', () => {
    expect(rowsCovered(100_000, 1_000, 150)).toBe(100);
    expect(rowsCovered(500_000, 1_000, 150)).toBe(150);
    expect(rowsCovered(999, 1_000, 150)).toBe(0);
    expect(rowsCovered(0, 0, 150)).toBe(150);
  });

  test('rule 4: the key ignores key order in rows and how they were read, and changes with the steps or the range', () => {
    const keyOf = (
      workspaceId: string,
      rows: Record<string, unknown>[],
      steps: string[],
      slice: { start: number; end: number },
    ) => runReplayKeyOf(workspaceId, hashRows(newRowsHash(), rows), steps, slice);
    const key = keyOf('ws_1', [{ a: 1, b: 2 }], ['email_enrichment'], { start: 0, end: 1 });
    expect(keyOf('ws_1', [{ b: 2, a: 1 }], ['email_enrichment'], { start: 0, end: 1 })).toBe(key);
    expect(keyOf('ws_1', [{ a: 1, b: 2 }], ['phone_enrichment'], { start: 0, end: 1 })).not.toBe(key);
    expect(keyOf('ws_1', [{ a: 1, b: 2 }], ['email_enrichment'], { start: 0, end: 0 })).not.toBe(key);
    expect(keyOf('ws_2', [{ a: 1, b: 2 }], ['email_enrichment'], { start: 0, end: 1 })).not.toBe(key);
    const paged = hashRows(hashRows(newRowsHash(), [{ a: 1 }]), [{ a: 2 }]);
    expect(runReplayKeyOf('ws_1', paged, ['email_enrichment'], { start: 0, end: 2 })).toBe(
      keyOf('ws_1', [{ a: 1 }, { a: 2 }], ['email_enrichment'], { start: 0, end: 2 }),
    );
  });
});
