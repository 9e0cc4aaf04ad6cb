import type { Caller } from '@rde/platform';
import { PacedProviders, type ProviderPort, type ProviderResult } from '../src/app/enrich/providers';

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

describe('rule 5: rows run in parallel within each vendor’s limits', () => {
  test('a 429 is waited out for its Retry-After and retried, not turned into a miss', async () => {
    const { port, seen } = vendor(2, 1_500);
    const pauses: number[] = [];
    let now = 0;
    const paced = new PacedProviders(port, {
      concurrency: 4,
      rateLimitBudgetMs: 60_000,
      sleep: async (ms) => {
        pauses.push(ms);
        now += ms;
      },
      now: () => now,
    });
    const result = await paced.invoke({ tool: 'mailfinder', method: 'find', payload: {} }, caller);
    expect(result).toEqual({ ok: true, answer: { email: 'a@x.com' } });
    expect(seen.calls).toBe(3);
    expect(pauses).toEqual([1_500, 1_500]);
  });

  test('without Retry-After the back-off grows; past the budget the failure is returned', async () => {
    const { port } = vendor(100);
    const pauses: number[] = [];
    let now = 0;
    const paced = new PacedProviders(port, {
      concurrency: 4,
      rateLimitBudgetMs: 2_000,
      sleep: async (ms) => {
        pauses.push(ms);
        now += ms;
      },
      now: () => now,
    });
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
});
