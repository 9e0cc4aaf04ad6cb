import { InMemoryKeyValue, type Caller } from '@rde/platform';
import { PacedProviders, type ProviderCall, type ProviderPort, type ProviderResult } from '../src/clients/providers';
import { VendorPauses } from '../src/clients/vendor-pauses';

const caller = { workspaceId: 'ws_1' } as Caller;

/** A vendor that rate-limits its first answers, and records how many calls ran at once. */
function vendor(limitedAnswers: number, retryAfterMs?: number) {
  let inFlight = 0;
  const seen = { calls: 0, maxInFlight: 0 };
  const port: ProviderPort = {
    contract: async () => ({ price: 1_000 }),
    invoke: async (): Promise<ProviderResult> => {
      seen.calls += 1;
      inFlight += 1;
      seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      if (seen.calls <= limitedAnswers) {
        return { ok: false, reason: 'rate_limited', message: '429', ...(retryAfterMs && { retryAfterMs }) };
      }
      return { ok: true, answer: { email: 'a@x.com' } };
    },
  };
  return { port, seen };
}

/** One slot per vendor on a clock that sleeps instantly; `seen` is told of every call the vendor gets. */
function oneSlotOnFakeClock(port: ReturnType<typeof vendor>['port'], seen: (call: ProviderCall) => void) {
  const clock = { now: 0 };
  const paced = new PacedProviders(
    {
      contract: port.contract,
      invoke: (call, who) => {
        seen(call);
        return port.invoke(call, who);
      },
    },
    {
      concurrency: 1,
      rateLimitBudgetMs: 60_000,
      sleep: async (ms) => {
        clock.now += ms;
      },
      now: () => clock.now,
    },
  );
  return { paced, clock };
}

/** Paced calls whose waits pass at once on a clock of their own, each wait recorded. */
function pausedOn(port: ProviderPort, rateLimitBudgetMs: number) {
  const pauses: number[] = [];
  let now = 0;
  const sleep = async (ms: number) => {
    pauses.push(ms);
    now += ms;
  };
  return { paced: new PacedProviders(port, { concurrency: 4, rateLimitBudgetMs, sleep, now: () => now }), pauses };
}

describe('rule 5: rows run in parallel within each vendor’s limits', () => {
  test('a 429 is waited out for its Retry-After and retried, not turned into a miss', async () => {
    const { port, seen } = vendor(2, 1_500);
    const { paced, pauses } = pausedOn(port, 60_000);
    const result = await paced.invoke({ tool: 'mailfinder', method: 'find', payload: {} }, caller);
    expect(result).toEqual({ ok: true, answer: { email: 'a@x.com' } });
    expect(seen.calls).toBe(3);
    expect(pauses).toEqual([1_500, 1_500]);
  });

  test('without Retry-After the back-off grows; past the budget the failure is returned', async () => {
    const { paced, pauses } = pausedOn(vendor(100).port, 2_000);
    const result = await paced.invoke({ tool: 'mailfinder', method: 'find', payload: {} }, caller);
    expect(result).toMatchObject({ ok: false, reason: 'rate_limited' });
    expect(pauses).toEqual([250, 500, 1_000, 2_000]);
  });

  test('at most `concurrency` calls to one vendor are in flight', async () => {
    const { port, seen } = vendor(0);
    const paced = new PacedProviders(port, { concurrency: 3, rateLimitBudgetMs: 0, sleep: async () => undefined });
    await Promise.all(
      Array.from({ length: 20 }, () => paced.invoke({ tool: 'mailfinder', method: 'find', payload: {} }, caller)),
    );
    expect(seen.calls).toBe(20);
    expect(seen.maxInFlight).toBe(3);
  });
  test('calls queued behind busy slots wait out a 429 told while they queued, not only calls arriving later', async () => {
    const { port, seen } = vendor(1, 1_000);
    const startedAt: number[] = [];
    const { paced, clock } = oneSlotOnFakeClock(port, () => startedAt.push(clock.now));
    await Promise.all(
      Array.from({ length: 5 }, () => paced.invoke({ tool: 'mailfinder', method: 'find', payload: {} }, caller)),
    );
    // The first call is refused at 0; every later one (queued at 0) starts after the pause.
    expect(seen.calls).toBe(6);
    expect(startedAt).toEqual([0, 1_000, 1_000, 1_000, 1_000, 1_000]);
  });

  test('a call a 429 refused keeps its place: the vendor answers rows in the order they came', async () => {
    const { port } = vendor(1, 1_000);
    const order: unknown[] = [];
    const { paced } = oneSlotOnFakeClock(port, (call) => order.push(call.payload.row));
    await Promise.all(
      [0, 1, 2].map((row) => paced.invoke({ tool: 'mailfinder', method: 'find', payload: { row } }, caller)),
    );
    // Row 0 was refused first, and is retried before rows 1 and 2 (which queued after it).
    expect(order).toEqual([0, 0, 1, 2]);
  });
});

describe('decision 0032: a vendor’s 429 pauses every replica', () => {
  test('a pause one replica was told to take holds the other replica’s calls until it ends', async () => {
    let now = 0;
    const keyValue = new InMemoryKeyValue({ now: () => now });
    const replica = (port: ProviderPort, pauses: number[]) =>
      new PacedProviders(port, {
        concurrency: 4,
        rateLimitBudgetMs: 60_000,
        sleep: async (ms) => {
          pauses.push(ms);
          now += ms;
        },
        now: () => now,
        shared: new VendorPauses(keyValue, () => now),
      });
    const first = vendor(1, 2_000);
    const second = vendor(0);
    const firstPauses: number[] = [];
    const secondPauses: number[] = [];
    await replica(first.port, firstPauses).invoke({ tool: 'mailfinder', method: 'find', payload: {} }, caller);
    expect(firstPauses).toEqual([2_000]);
    // The other replica calls 1 s after the 429 (half the pause): it waits out the other half first.
    now = 1_000;
    const result = await replica(second.port, secondPauses).invoke(
      { tool: 'mailfinder', method: 'find', payload: {} },
      caller,
    );
    expect(result.ok).toBe(true);
    expect(secondPauses).toEqual([1_000]);
    // Another vendor is not held.
    const other: number[] = [];
    await replica(vendor(0).port, other).invoke({ tool: 'bulkmail', method: 'submit', payload: {} }, caller);
    expect(other).toEqual([]);
  });
});
