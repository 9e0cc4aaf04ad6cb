import type { KeyValue } from '../../src/ports/key-value';
import { uniqueName } from './support/real-backends';

export interface KeyValueFixture {
  /** A store for `namespace`; the fixture closes what it opened. */
  open(namespace: string): Promise<KeyValue>;
  /** Lets `ms` pass for expiry: a manual clock moves, a real server is waited for. */
  elapse(ms: number): Promise<void>;
  close(): Promise<void>;
}

const TTL_MS = 300;

/** What every key-value adapter must do; each test uses a namespace of its own. */
export function describeKeyValueContract(name: string, fixture: () => KeyValueFixture): void {
  describe(`key-value contract: ${name}`, () => {
    let subject: KeyValueFixture;
    let kv: KeyValue;

    beforeAll(() => {
      subject = fixture();
    });
    afterAll(() => subject.close());
    beforeEach(async () => {
      kv = await subject.open(uniqueName('kv'));
      await kv.ping();
    });

    it('sets, gets and deletes', async () => {
      await kv.set('k', 'v1');
      await kv.set('k', 'v2');
      expect(await kv.get('k')).toBe('v2');
      expect(await kv.delete('k')).toBe(true);
      expect(await kv.delete('k')).toBe(false);
      expect(await kv.get('k')).toBeNull();
    });

    it('expires a key after its TTL and reports the time left before that', async () => {
      await kv.set('replay', 'seen', { ttlMs: TTL_MS });
      await kv.set('forever', 'v');

      const left = await kv.ttl('replay');
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(TTL_MS);
      expect(await kv.ttl('forever')).toBeNull();
      expect(await kv.ttl('missing')).toBeNull();

      await subject.elapse(TTL_MS + 50);
      expect(await kv.get('replay')).toBeNull();
      expect(await kv.get('forever')).toBe('v');
    });

    it('lets exactly one of many concurrent setIfAbsent calls win, and frees the key on expiry', async () => {
      const wins = await Promise.all(
        Array.from({ length: 20 }, (_, i) => kv.setIfAbsent('lock', `owner-${i}`, TTL_MS)),
      );

      const winner = wins.indexOf(true);
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect(await kv.get('lock')).toBe(`owner-${winner}`);

      await subject.elapse(TTL_MS + 50);
      expect(await kv.setIfAbsent('lock', 'next', TTL_MS)).toBe(true);
    });

    it('counts with increment; the TTL is set by the call that creates the counter, not reset later', async () => {
      const counts = await Promise.all(Array.from({ length: 10 }, () => kv.increment('rate', TTL_MS)));
      expect([...counts].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

      await subject.elapse(TTL_MS / 2);
      await kv.increment('rate', TTL_MS); // must not extend the window
      await subject.elapse(TTL_MS / 2 + 50);

      expect(await kv.get('rate')).toBeNull();
      expect(await kv.increment('rate', TTL_MS)).toBe(1);
      expect(await kv.increment('plain')).toBe(1);
      expect(await kv.ttl('plain')).toBeNull();
    });

    it('lets a lease owner renew and end only its own lease, never one another owner has taken since', async () => {
      expect(await kv.setIfAbsentOrEqual('lease', 'a', 'a', TTL_MS)).toBe(true); // absent: taken
      expect(await kv.setIfAbsentOrEqual('lease', 'a', 'a-done', TTL_MS)).toBe(true); // still a's
      expect(await kv.get('lease')).toBe('a-done');
      await subject.elapse(TTL_MS + 50);

      expect(await kv.setIfAbsent('lease', 'b', TTL_MS * 10)).toBe(true); // a's lapsed; b takes it
      expect(await kv.setIfAbsentOrEqual('lease', 'a-done', 'a-late', TTL_MS)).toBe(false);
      expect(await kv.deleteIfEqual('lease', 'a-done')).toBe(false);
      expect(await kv.get('lease')).toBe('b');
      expect(await kv.ttl('lease')).toBeGreaterThan(TTL_MS);

      expect(await kv.deleteIfEqual('lease', 'b')).toBe(true);
      expect(await kv.get('lease')).toBeNull();
      expect(await kv.deleteIfEqual('lease', 'b')).toBe(false);
    });

    it('keeps namespaces apart', async () => {
      const other = await subject.open(uniqueName('kv-other'));
      await kv.set('shared-name', 'mine');
      expect(await other.get('shared-name')).toBeNull();
    });
  });
}
