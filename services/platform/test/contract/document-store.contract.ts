import { DuplicateKeyError, type Collection, type Document, type DocumentStore } from '../../src/ports/document-store';
import { uniqueName } from './support/real-backends';

interface Account extends Document {
  email?: string;
  balance?: number;
  plan?: { name: string; seats: number };
  tags?: string[];
}

/** What every document-store adapter must do; each test uses a collection of its own. */
export function describeDocumentStoreContract(
  name: string,
  open: () => Promise<DocumentStore>,
  close: () => Promise<void>,
): void {
  describe(`document store contract: ${name}`, () => {
    let store: DocumentStore;
    let accounts: Collection<Account>;

    beforeAll(async () => {
      store = await open();
      await store.ping();
    });
    afterAll(close);
    beforeEach(() => {
      accounts = store.collection<Account>(uniqueName('accounts'));
    });

    it('reports a duplicate _id as a conflict and keeps the first document', async () => {
      await accounts.insertOne({ _id: 'a', email: 'first@x.test' });

      await expect(accounts.insertOne({ _id: 'a', email: 'second@x.test' })).rejects.toBeInstanceOf(DuplicateKeyError);

      expect(await accounts.findOne({ _id: 'a' })).toEqual({ _id: 'a', email: 'first@x.test' });
      expect(await accounts.countDocuments()).toBe(1);
    });

    it('inserts many documents at once, skipping and reporting each whose _id or unique key is taken', async () => {
      await accounts.createIndex({ keys: { email: 1 }, unique: true, name: 'email_unique' });
      await accounts.insertOne({ _id: 'a', email: 'taken@x.test' });

      const result = await accounts.insertMany([
        { _id: 'a', email: 'again@x.test' },
        { _id: 'b', email: 'b@x.test' },
        { _id: 'c', email: 'taken@x.test' },
        { _id: 'd', email: 'd@x.test' },
      ]);

      expect(result.duplicates.sort()).toEqual(['a', 'c']);
      expect(await accounts.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: 'a', email: 'taken@x.test' },
        { _id: 'b', email: 'b@x.test' },
        { _id: 'd', email: 'd@x.test' },
      ]);
      expect(await accounts.insertMany([])).toEqual({ duplicates: [] });
    });

    it('reports a secondary unique-index violation as a conflict, on insert and on update', async () => {
      await accounts.createIndex({ keys: { email: 1 }, unique: true, name: 'email_unique' });
      await accounts.insertOne({ _id: 'a', email: 'taken@x.test', balance: 1 });
      await accounts.insertOne({ _id: 'b', email: 'other@x.test', balance: 2 });

      await expect(accounts.insertOne({ _id: 'c', email: 'taken@x.test' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(accounts.updateOne({ _id: 'b' }, { $set: { email: 'taken@x.test' } })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );

      expect(await accounts.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: 'a', email: 'taken@x.test', balance: 1 },
        { _id: 'b', email: 'other@x.test', balance: 2 },
      ]);
    });

    it('never overshoots under concurrent guarded decrements', async () => {
      const balance = 100;
      const cost = 7;
      await accounts.insertOne({ _id: 'w', balance });
      // concurrent reads first, so a pooled client has its connections open and the updates truly race
      await Promise.all(Array.from({ length: 50 }, () => accounts.findOne({ _id: 'w' })));

      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          accounts.updateOne({ _id: 'w', balance: { $gte: cost } }, { $inc: { balance: -cost } }),
        ),
      );

      const succeeded = results.filter((result) => result.matched === 1).length;
      expect(succeeded).toBe(Math.floor(balance / cost));
      expect((await accounts.findOne({ _id: 'w' }))?.balance).toBe(balance - succeeded * cost);
    });

    it('finds with sort, skip, limit, dotted paths, $in and $exists', async () => {
      for (const [id, seats] of [
        ['a', 3],
        ['b', 1],
        ['c', 5],
        ['d', 2],
      ] as const) {
        await accounts.insertOne({ _id: id, plan: { name: id === 'c' ? 'team' : 'solo', seats } });
      }
      await accounts.insertOne({ _id: 'e', email: 'no-plan@x.test' });

      const bySeats = await accounts.find(
        { 'plan.seats': { $exists: true } },
        { sort: { 'plan.seats': -1 }, skip: 1, limit: 2 },
      );
      expect(bySeats.map((doc) => doc._id)).toEqual(['a', 'd']);
      expect((await accounts.find({ 'plan.name': 'team' })).map((doc) => doc._id)).toEqual(['c']);
      expect(
        (await accounts.find({ _id: { $in: ['b', 'e', 'zz'] } }, { sort: { _id: 1 } })).map((doc) => doc._id),
      ).toEqual(['b', 'e']);
      expect((await accounts.find({ plan: { $exists: false } })).map((doc) => doc._id)).toEqual(['e']);
      expect(await accounts.findOne({ 'plan.seats': { $gt: 1 } }, { sort: { 'plan.seats': 1 } })).toMatchObject({
        _id: 'd',
      });
      expect(await accounts.findOne({ _id: 'missing' })).toBeNull();
    });

    it('hands out copies: changing a result does not change the stored document', async () => {
      await accounts.insertOne({ _id: 'a', tags: ['x'] });
      const found = await accounts.findOne({ _id: 'a' });
      found!.tags!.push('changed');
      expect(await accounts.findOne({ _id: 'a' })).toEqual({ _id: 'a', tags: ['x'] });
    });

    it('upserts: inserts from the filter and $setOnInsert, then updates without re-inserting', async () => {
      const first = await accounts.updateOne(
        { _id: 'u', email: 'u@x.test' },
        { $inc: { balance: 5 }, $setOnInsert: { tags: ['new'] } },
        { upsert: true },
      );
      expect(first).toEqual({ matched: 0, modified: 0, upsertedId: 'u' });

      const second = await accounts.updateOne(
        { _id: 'u', email: 'u@x.test' },
        { $inc: { balance: 5 }, $setOnInsert: { tags: ['again'] } },
        { upsert: true },
      );
      expect(second).toEqual({ matched: 1, modified: 1 });
      expect(await accounts.findOne({ _id: 'u' })).toEqual({ _id: 'u', email: 'u@x.test', balance: 10, tags: ['new'] });
    });

    it('gives an upserted document without _id in its filter a string id', async () => {
      const result = await accounts.updateOne({ email: 'anon@x.test' }, { $set: { balance: 1 } }, { upsert: true });
      expect(typeof result.upsertedId).toBe('string');
      expect(await accounts.findOne({ email: 'anon@x.test' })).toEqual({
        _id: result.upsertedId,
        email: 'anon@x.test',
        balance: 1,
      });
    });

    it('applies $set, $unset, $inc, $push with $each and $pull', async () => {
      await accounts.insertOne({ _id: 'a', balance: 1, tags: ['keep', 'drop'], plan: { name: 'solo', seats: 1 } });

      await accounts.updateOne({ _id: 'a' }, { $push: { tags: { $each: ['drop', 'late'] } }, $inc: { balance: 2 } });
      await accounts.updateOne(
        { _id: 'a' },
        { $pull: { tags: 'drop' }, $set: { 'plan.seats': 4 }, $unset: { email: '' } },
      );
      const noChange = await accounts.updateOne({ _id: 'a' }, { $set: { balance: 3 } });

      expect(noChange).toEqual({ matched: 1, modified: 0 });
      expect(await accounts.findOne({ _id: 'a' })).toEqual({
        _id: 'a',
        balance: 3,
        tags: ['keep', 'late'],
        plan: { name: 'solo', seats: 4 },
      });
    });

    it('removes array elements equal to the given ones with $pullAll', async () => {
      await accounts.insertOne({ _id: 'a', tags: ['a', 'b', 'c', 'b'] });
      await accounts.updateOne({ _id: 'a' }, { $pullAll: { tags: ['b', 'c'] } });
      expect((await accounts.findOne({ _id: 'a' }))?.tags).toEqual(['a']);
    });

    it('findOneAndUpdate returns the document after the update, picks by sort, and null on no match', async () => {
      await accounts.insertOne({ _id: 'late', balance: 2 });
      await accounts.insertOne({ _id: 'early', balance: 1 });

      const claimed = await accounts.findOneAndUpdate(
        { tags: { $exists: false } },
        { $set: { tags: ['claimed'] } },
        { sort: { balance: 1 } },
      );
      expect(claimed).toEqual({ _id: 'early', balance: 1, tags: ['claimed'] });
      expect(await accounts.findOneAndUpdate({ _id: 'nobody' }, { $set: { balance: 9 } })).toBeNull();
      expect(await accounts.findOneAndUpdate({ _id: 'new' }, { $set: { balance: 9 } }, { upsert: true })).toEqual({
        _id: 'new',
        balance: 9,
      });
    });

    it('streams every match in order', async () => {
      const total = 250; // more than MongoDB's first cursor batch (101)
      await Promise.all(
        Array.from({ length: total }, (_, i) => accounts.insertOne({ _id: `row-${i}`, balance: (i * 37) % total })),
      );

      const streamed: number[] = [];
      for await (const doc of accounts.stream({}, { sort: { balance: 1 } })) streamed.push(doc.balance!);

      expect(streamed).toEqual(Array.from({ length: total }, (_, i) => i));
    });

    it('runs each update of a bulk on its own document with its own guard', async () => {
      for (const id of ['a', 'b', 'c']) await accounts.insertOne({ _id: id, balance: 0 });

      const matched = await accounts.updateEach([
        { filter: { _id: 'a', balance: 0 }, update: { $set: { balance: 1 } } },
        { filter: { _id: 'b', balance: 5 }, update: { $set: { balance: 2 } } }, // its guard fails
        { filter: { _id: 'c', balance: { $exists: true } }, update: { $inc: { balance: 3 } } },
      ]);

      expect(matched).toBe(2);
      expect(await accounts.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: 'a', balance: 1 },
        { _id: 'b', balance: 0 },
        { _id: 'c', balance: 3 },
      ]);
      expect(await accounts.updateEach([])).toBe(0);
    });

    it('counts, updates many and deletes', async () => {
      for (const id of ['a', 'b', 'c', 'd']) await accounts.insertOne({ _id: id, balance: id < 'c' ? 0 : 1 });

      expect(await accounts.countDocuments({ balance: 0 })).toBe(2);
      expect(await accounts.updateMany({ balance: 0 }, { $set: { balance: 1 } })).toEqual({ matched: 2, modified: 2 });
      expect(await accounts.deleteOne({ balance: 1 })).toBe(1);
      expect(await accounts.deleteMany({ balance: 1 })).toBe(3);
      expect(await accounts.deleteOne({ _id: 'a' })).toBe(0);
      expect(await accounts.countDocuments()).toBe(0);
    });
  });
}
