import { meteringAfterCall } from '../src/paid-call-metering';

describe('metering after a paid call', () => {
  test("reserved is the workspace's other open holds, not the call's own released hold; settled unless one is open", () => {
    // A lone call: Reserve answered with only its own 1-credit hold open.
    const lone = meteringAfterCall({ balance: 100_000, reserved: 1_000 }, 1_000, 1_000);
    expect(lone).toEqual({ balance: 99_000, reserved: 0, settled: true });
    // Another call's 4-credit hold stays counted, and the balance is provisional (balance − holds).
    const beside = meteringAfterCall({ balance: 100_000, reserved: 5_000 }, 1_000, 1_000);
    expect(beside).toEqual({ balance: 95_000, reserved: 4_000, settled: false });
  });

  test("a zero-charge call never shows more than the workspace's credits, and alone it is settled", () => {
    const alone = meteringAfterCall({ balance: 100_000, reserved: 2_000 }, 2_000, 0);
    expect(alone).toEqual({ balance: 100_000, reserved: 0, settled: true });
    expect(alone.balance + alone.reserved).toBeLessThanOrEqual(100_000);
    const beside = meteringAfterCall({ balance: 100_000, reserved: 5_000 }, 2_000, 0);
    expect(beside).toEqual({ balance: 97_000, reserved: 3_000, settled: false });
    expect(beside.balance + beside.reserved).toBe(100_000);
  });
});
