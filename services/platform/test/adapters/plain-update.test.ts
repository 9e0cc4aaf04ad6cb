import { createUpdater } from 'mingo/updater';
import { applyPlainOperator, DocumentDraft } from '../../src/adapters/memory/plain-update';

const mingoUpdate = createUpdater({ cloneMode: 'deep' });

const account = () => ({
  _id: 'ws_1',
  balance: 100,
  holds: { h1: { amount: 5, applied: {} } } as Record<string, unknown>,
  tags: ['a', 'b', 'c'],
  when: new Date(0),
});

/** Each update as the repositories send it, applied natively and by mingo to the same document. */
const UPDATES: [string, Record<string, unknown>][] = [
  ['$set', { 'holds.h2': { amount: 3, applied: {} }, status: 'open' }],
  ['$set', { balance: 100 }],
  ['$set', { 'deep.new.path': 1 }],
  ['$set', { when: new Date(0) }],
  ['$inc', { balance: -7, reserved: 7, 'holds.h1.amount': 0 }],
  ['$inc', { 'holds.h1.drawn': 2 }],
  ['$unset', { 'holds.h1': '' }],
  ['$unset', { 'missing.path': '' }],
  ['$pullAll', { tags: ['b', 'z'] }],
  ['$pullAll', { tags: ['z'] }],
  ['$push', { tags: 'd' }],
  ['$push', { tags: { $each: ['d', { nested: [1] }] } }],
  ['$push', { _outbox: { $each: [{ id: 'e1', createdAt: new Date(0) }] } }],
  ['$push', { 'holds.h1.log': { at: 1 }, 'fresh.list': ['a'] }],
];

describe('native updates change documents as mingo does', () => {
  test.each(UPDATES.map(([operator, argument]) => [`${operator} ${JSON.stringify(argument)}`, operator, argument]))(
    '%s',
    (_name, operator, argument) => {
      const stored = account();
      const native = new DocumentDraft(stored);
      const byMingo = account();
      const changed = applyPlainOperator(native, operator as string, argument as Record<string, unknown>);
      const mingoChanged = mingoUpdate(byMingo, { [operator as string]: argument } as never).length > 0;
      expect(native.doc).toEqual(byMingo);
      expect(changed).toBe(mingoChanged);
      expect(stored).toEqual(account());
    },
  );

  test('where mingo reports a change MongoDB does not (modified: 0), the native update follows MongoDB', () => {
    const doc = new DocumentDraft(account());
    expect(applyPlainOperator(doc, '$inc', { balance: 0 })).toBe(false);
    expect(applyPlainOperator(doc, '$pullAll', { absent: ['z'] })).toBe(false);
    expect(doc.doc).toEqual(account());
  });

  test('a draft copies the objects on the changed paths once and shares the rest with the stored version', () => {
    const stored = { ...account(), plan: { name: 'solo' } };
    const draft = new DocumentDraft(stored);
    applyPlainOperator(draft, '$inc', { 'holds.h1.amount': 1 });
    applyPlainOperator(draft, '$set', { 'holds.h1.applied.c1': 1, 'holds.h2': {} });
    expect(draft.doc.holds).not.toBe(stored.holds);
    expect(draft.doc.plan).toBe(stored.plan);
    expect(draft.doc.holds).toEqual({ h1: { amount: 6, applied: { c1: 1 } }, h2: {} });
    expect(stored.holds).toEqual({ h1: { amount: 5, applied: {} } });
  });

  test('paths through arrays or values, and operators it does not know, are left to mingo untouched', () => {
    const stored = account();
    const doc = new DocumentDraft(stored);
    expect(applyPlainOperator(doc, '$set', { 'tags.0': 'x' })).toBeUndefined();
    expect(applyPlainOperator(doc, '$set', { 'balance.cents': 1 })).toBeUndefined();
    expect(applyPlainOperator(doc, '$inc', { tags: 1 })).toBeUndefined();
    expect(applyPlainOperator(doc, '$push', { balance: 1 })).toBeUndefined();
    expect(applyPlainOperator(doc, '$push', { tags: { $each: ['d'], $slice: -2 } })).toBeUndefined();
    expect(applyPlainOperator(doc, '$push', { tags: { $each: [] } })).toBeUndefined();
    expect(applyPlainOperator(doc, '$addToSet', { tags: 'd' })).toBeUndefined();
    expect(applyPlainOperator(doc, '$set', { ok: 1, 'tags.0': 'x' })).toBeUndefined();
    expect(doc.doc).toEqual(account());
    expect(stored).toEqual(account());
  });

  test("set and pushed values are copies: changing the caller's object later changes nothing stored", () => {
    const draft = new DocumentDraft(account());
    const hold = { amount: 1 };
    applyPlainOperator(draft, '$set', { 'holds.h3': hold });
    applyPlainOperator(draft, '$push', { tags: hold });
    hold.amount = 99;
    expect(draft.doc).toMatchObject({ holds: { h3: { amount: 1 } } });
    expect((draft.doc.tags as unknown[]).at(-1)).toEqual({ amount: 1 });
  });
});
