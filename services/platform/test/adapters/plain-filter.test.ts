import { Query } from 'mingo';
import { compilePlainFilter, sortPlain } from '../../src/adapters/memory/plain-filter';
import type { Filter } from '../../src/ports/document-store';

/** Documents with the shapes the repositories store: scalars, nulls, missing fields, nested holds, arrays. */
const DOCS = [
  { _id: 'a', status: 'ready', n: 1, owner: null, holds: { h1: { amount: 5 } }, tags: ['x'] },
  { _id: 'b', status: 'deleting', n: 2, holds: {} },
  { _id: 'c', status: 'ready', n: '2', owner: 'u1', holds: { h2: { amount: 0 } } },
  { _id: 'd', n: 3.5, owner: 'u2', flag: true },
  { _id: 'e', status: 'failed', n: -1, owner: null, nested: { deep: { value: 7 } } },
];

const FILTERS: Filter[] = [
  {},
  { status: 'ready' },
  { status: null },
  { owner: null },
  { owner: { $ne: null } },
  { status: { $ne: 'ready' } },
  { n: { $gt: 1 } },
  { n: { $gte: 2, $lt: 4 } },
  { n: { $lte: '2' } },
  { status: { $in: ['ready', 'deleting'] } },
  { owner: { $in: [null, 'u2'] } },
  { 'holds.h1': { $exists: true } },
  { 'holds.h1': { $exists: false }, status: 'ready' },
  { 'holds.h2.amount': 0 },
  { 'nested.deep.value': { $gte: 7 } },
  { flag: true },
  { _id: 'c', status: { $eq: 'ready' } },
  { 'tags.0': { $exists: true } },
  { 'tags.0': 'x' },
  { 'tags.1': { $exists: false } },
];

describe('plain filters decide as mingo does', () => {
  test.each(FILTERS.map((filter) => [JSON.stringify(filter), filter]))('%s', (_name, filter) => {
    const matcher = compilePlainFilter(filter as Filter);
    expect(matcher).toBeDefined();
    const decided = DOCS.filter((doc) => matcher!(doc));
    expect(DOCS.every((doc) => matcher!(doc) !== undefined)).toBe(true);
    expect(decided.map((doc) => doc._id)).toEqual(
      new Query(filter as Filter)
        .find<(typeof DOCS)[number]>(DOCS)
        .all()
        .map((doc) => doc._id),
    );
  });

  test('arrays on the path, $or and document values are left to mingo', () => {
    expect(compilePlainFilter({ tags: 'x' })!(DOCS[0])).toBeUndefined();
    expect(compilePlainFilter({ 'tags.first': 'x' })!(DOCS[0])).toBeUndefined();
    expect(compilePlainFilter({ $or: [{ status: 'ready' }] })).toBeUndefined();
    expect(compilePlainFilter({ holds: { h1: { amount: 5 } } })).toBeUndefined();
    expect(compilePlainFilter({ status: { $nin: ['ready'] } })).toBeUndefined();
  });

  test('sorting by scalars follows MongoDB: missing and null first, numbers, then strings', () => {
    const byN = sortPlain(DOCS, { n: 1 })!.map((doc) => doc._id);
    expect(byN).toEqual(
      new Query({})
        .find<(typeof DOCS)[number]>(DOCS)
        .sort({ n: 1 })
        .all()
        .map((doc) => doc._id),
    );
    const byOwnerDesc = sortPlain(DOCS, { owner: -1, _id: 1 })!.map((doc) => doc._id);
    expect(byOwnerDesc).toEqual(
      new Query({})
        .find<(typeof DOCS)[number]>(DOCS)
        .sort({ owner: -1, _id: 1 })
        .all()
        .map((doc) => doc._id),
    );
    expect(sortPlain(DOCS, { tags: 1 })).toBeUndefined();
  });
});
