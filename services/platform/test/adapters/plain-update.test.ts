import { createUpdater } from 'mingo/updater';
import { applyPlainOperator } from '../../src/adapters/memory/plain-update';

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
      const native = account();
      const byMingo = account();
      const changed = applyPlainOperator(native, operator as string, argument as Record<string, unknown>);
      const mingoChanged = mingoUpdate(byMingo, { [operator as string]: argument } as never).length > 0;
      expect(native).toEqual(byMingo);
      expect(changed).toBe(mingoChanged);
    },
  );

  test('where mingo reports a change MongoDB does not (modified: 0), the native update follows MongoDB', () => {
    const doc = account();
    expect(applyPlainOperator(doc, '$inc', { balance: 0 })).toBe(false);
    expect(applyPlainOperator(doc, '$pullAll', { absent: ['z'] })).toBe(false);
    expect(doc).toEqual(account());
  });

  test('paths through arrays or values, and operators it does not know, are left to mingo untouched', () => {
    const doc = account();
    expect(applyPlainOperator(doc, '$set', { 'tags.0': 'x' })).toBeUndefined();
    expect(applyPlainOperator(doc, '$set', { 'balance.cents': 1 })).toBeUndefined();
    expect(applyPlainOperator(doc, '$inc', { tags: 1 })).toBeUndefined();
    expect(applyPlainOperator(doc, '$push', { balance: 1 })).toBeUndefined();
    expect(applyPlainOperator(doc, '$push', { tags: { $each: ['d'], $slice: -2 } })).toBeUndefined();
    expect(applyPlainOperator(doc, '$push', { tags: { $each: [] } })).toBeUndefined();
    expect(applyPlainOperator(doc, '$addToSet', { tags: 'd' })).toBeUndefined();
    expect(applyPlainOperator(doc, '$set', { ok: 1, 'tags.0': 'x' })).toBeUndefined();
    expect(doc).toEqual(account());
  });

  test("set and pushed values are copies: changing the caller's object later changes nothing stored", () => {
    const doc = account();
    const hold = { amount: 1 };
    applyPlainOperator(doc, '$set', { 'holds.h3': hold });
    applyPlainOperator(doc, '$push', { tags: hold });
    hold.amount = 99;
    expect(doc.holds.h3).toEqual({ amount: 1 });
    expect(doc.tags.at(-1)).toEqual({ amount: 1 });
  });
});
