import { randomBytes } from 'node:crypto';
import { InMemoryKeyValue, isRunId, ManualClock } from '@rde/platform';
import { fingerprintOf, runIdOf, storageKeyOf } from '../src/plugins/idempotency/fingerprint';
import { IdempotencyRecordsRepository } from '../src/plugins/idempotency/records';

const LIMITS = { retentionMs: 60_000, leaseMs: 3_000, maxBodyBytes: 4_096 };

function records() {
  const clock = new ManualClock();
  return { clock, repository: new IdempotencyRecordsRepository(new InMemoryKeyValue(clock), LIMITS) };
}

const answer = (body: string) => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(body),
});

describe('idempotency records', () => {
  test('the first claim wins; a second sees it running with the lease left, then the kept answer', async () => {
    const { clock, repository } = records();
    expect(await repository.claim('k', 'fp', 'gw1:req1')).toEqual({ state: 'claimed' });
    clock.advance(1_000);
    expect(await repository.claim('k', 'fp', 'gw2:req1')).toEqual({
      state: 'running',
      fingerprint: 'fp',
      retryAfterMs: 2_000,
    });
    await repository.keep('k', 'fp', 'gw1:req1', answer('{"ok":true}'));
    expect(await repository.claim('k', 'fp', 'gw2:req2')).toEqual({
      state: 'done',
      fingerprint: 'fp',
      response: answer('{"ok":true}'),
    });
  });

  test("a dead owner's marker lapses with its lease, a renewed one does not", async () => {
    const { clock, repository } = records();
    await repository.claim('k', 'fp', 'gw1:req1');
    clock.advance(2_000);
    await repository.renew('k', 'fp', 'gw1:req1');
    clock.advance(2_000);
    expect((await repository.claim('k', 'fp', 'gw2:req1')).state).toBe('running');
    clock.advance(3_000);
    expect(await repository.claim('k', 'fp', 'gw2:req2')).toEqual({ state: 'claimed' });
  });

  test('a kept answer expires after the retention window; a released key is free at once', async () => {
    const { clock, repository } = records();
    await repository.claim('k', 'fp', 'o');
    await repository.keep('k', 'fp', 'o', answer('{}'));
    clock.advance(LIMITS.retentionMs);
    expect(await repository.claim('k', 'fp', 'o')).toEqual({ state: 'claimed' });
    await repository.release('k', 'fp', 'o');
    expect(await repository.claim('k', 'other', 'o')).toEqual({ state: 'claimed' });
  });

  test('an owner whose lease lapsed and was claimed by another request leaves that claim alone: no renew, keep or release of it', async () => {
    const { clock, repository } = records();
    await repository.claim('k', 'fp', 'gw1:slow');
    clock.advance(LIMITS.leaseMs);
    expect(await repository.claim('k', 'fp', 'gw2:retry')).toEqual({ state: 'claimed' });

    await repository.renew('k', 'fp', 'gw1:slow');
    await repository.release('k', 'fp', 'gw1:slow');
    await repository.keep('k', 'fp', 'gw1:slow', answer('{"late":true}'));
    expect((await repository.claim('k', 'fp', 'gw3:third')).state).toBe('running');

    await repository.keep('k', 'fp', 'gw2:retry', answer('{"ok":true}'));
    expect(await repository.claim('k', 'fp', 'gw3:fourth')).toEqual({
      state: 'done',
      fingerprint: 'fp',
      response: answer('{"ok":true}'),
    });
  });

  test('a large answer comes back byte for byte (gzipped in store); one over the bound keeps only its fingerprint', async () => {
    const { repository } = records();
    const large = JSON.stringify({ rows: Array.from({ length: 500 }, (_, i) => ({ i, name: 'same text' })) });
    await repository.keep('large', 'fp', 'o', answer(large));
    const kept = await repository.claim('large', 'fp', 'o');
    expect(kept.state === 'done' && kept.response?.body.toString()).toBe(large);
    const random = randomBytes(8_000).toString('base64');
    await repository.keep('huge', 'fp', 'o', answer(random));
    expect(await repository.claim('huge', 'fp', 'o')).toEqual({ state: 'done', fingerprint: 'fp' });
  });
});

describe('idempotency fingerprints and run ids', () => {
  test('key order does not change the fingerprint; method, route, query and values do', () => {
    const base = fingerprintOf('POST', '/tools/:tool/:method', '/tools/a/b', { a: 1, b: { c: 2, d: 3 } });
    expect(fingerprintOf('POST', '/tools/:tool/:method', '/tools/a/b', { b: { d: 3, c: 2 }, a: 1 })).toBe(base);
    for (const other of [
      fingerprintOf('PUT', '/tools/:tool/:method', '/tools/a/b', { a: 1, b: { c: 2, d: 3 } }),
      fingerprintOf('POST', '/tools/:tool/:method', '/tools/a/b?x=1', { a: 1, b: { c: 2, d: 3 } }),
      fingerprintOf('POST', '/tools/:tool/:method', '/tools/a/b', { a: 2, b: { c: 2, d: 3 } }),
    ])
      expect(other).not.toBe(base);
  });

  test('the run id is a run id, the same for the same workspace, key and request, else another', () => {
    const runId = runIdOf('ws_1', 'key', 'fp');
    expect(isRunId(runId)).toBe(true);
    expect(runIdOf('ws_1', 'key', 'fp')).toBe(runId);
    expect(
      new Set([runIdOf('ws_2', 'key', 'fp'), runIdOf('ws_1', 'key2', 'fp'), runIdOf('ws_1', 'key', 'fp2')]).has(runId),
    ).toBe(false);
  });

  test('keys are scoped by workspace and stored hashed', () => {
    expect(storageKeyOf('ws_1', 'my key')).not.toBe(storageKeyOf('ws_2', 'my key'));
    expect(storageKeyOf('ws_1', 'my key')).not.toContain('my key');
  });
});
