import { InMemoryKeyValue, type Caller } from '@rde/platform';
import { PacedProviders, type ProviderPort, type ProviderResult } from '../src/clients/providers';
import { callsPerWindow, VendorPacing, type VendorRate } from '../src/vendors/pacing';

const caller = { workspaceId: 'ws_1' } as Caller;

/** A clock whose sleeps end at once: a sleeper moves it to its wake-up time, never back. */
function fakeClock() {
  const clock = { now: 0 };
  return {
    clock,
    now: () => clock.now,
    sleep: async (ms: number) => {
      const wake = clock.now + ms;
      await new Promise((resolve) => setImmediate(resolve));
      clock.now = Math.max(clock.now, wake);
    },
  };
}

/** A vendor that refuses (429) whatever its token bucket at `rate` cannot take, as the sandbox does. */
function bucketVendor(rate: VendorRate, now: () => number) {
  let tokens = rate.burst;
  let last = 0;
  const seen = { answered: 0, refused: 0 };
  const port: ProviderPort = {
    contract: async () => ({ price: 1_000, rate }),
    invoke: async (): Promise<ProviderResult> => {
      tokens = Math.min(rate.burst, tokens + ((now() - last) * rate.perSecond) / 1_000);
      last = now();
      if (tokens < 1) {
        seen.refused += 1;
        return { ok: false, reason: 'rate_limited', message: '429', retryAfterMs: 1_000 };
      }
      tokens -= 1;
      seen.answered += 1;
      return { ok: true, answer: {} };
    },
  };
  return { port, seen };
}

describe('decision 0079: every replica paces a vendor together at its published rate', () => {
  test('a window sends no more than the rate refills in it, nor half the burst, nor fewer than one call', () => {
    expect(callsPerWindow({ perSecond: 10, burst: 20 })).toBe(10);
    expect(callsPerWindow({ perSecond: 2, burst: 5 })).toBe(2);
    expect(callsPerWindow({ perSecond: 10, burst: 8 })).toBe(4);
    expect(callsPerWindow({ perSecond: 0.5, burst: 1 })).toBe(1);
  });

  const rate = { perSecond: 5, burst: 10 };
  const runTwoReplicas = async (paced: boolean) => {
    const { clock, now, sleep } = fakeClock();
    const keyValue = new InMemoryKeyValue({ now });
    const vendor = bucketVendor(rate, now);
    const replica = () =>
      new PacedProviders(vendor.port, {
        concurrency: 8,
        rateLimitBudgetMs: 60_000,
        sleep,
        now,
        ...(paced && { pacing: new VendorPacing(keyValue, now, sleep) }),
      });
    const replicas = [replica(), replica()];
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        replicas[i % 2]!.invoke({ tool: 'dialbook', method: 'lookup', payload: {} }, caller),
      ),
    );
    return { results, seen: vendor.seen, elapsedMs: clock.now };
  };

  test('two replicas sending 40 calls to a 5/s vendor are never refused, and take the time the rate allows', async () => {
    const { results, seen, elapsedMs } = await runTwoReplicas(true);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(seen).toEqual({ answered: 40, refused: 0 });
    // 40 calls at 5 a window: the last one goes out in the eighth window.
    expect(elapsedMs).toBeLessThan(8_000);
  });

  test('without the shared pace the same two replicas learn the rate from refusals', async () => {
    const { seen } = await runTwoReplicas(false);
    expect(seen.answered).toBe(40);
    expect(seen.refused).toBeGreaterThan(0);
  });

  test('a vendor that publishes no rate is not paced', async () => {
    const { now, sleep } = fakeClock();
    const take = jest.fn();
    const port: ProviderPort = {
      contract: async () => ({ price: 1_000 }),
      invoke: async () => ({ ok: true, answer: {} }),
    };
    const paced = new PacedProviders(port, { concurrency: 1, rateLimitBudgetMs: 1_000, sleep, now, pacing: { take } });
    await paced.invoke({ tool: 'homebase', method: 'lookup', payload: {} }, caller);
    expect(take).not.toHaveBeenCalled();
  });
});
