import { errors } from '@rde/platform';
import type { billing } from '@rde/proto';
import type { Clients } from '../src/clients';
import { gatewayOver, OWNER } from './support';

/**
 * The billing routes' own logic over a stand-in billing client: paging the CSV export, escaping
 * it, and the provisional `_meta` while holds are open. The real services are covered end to end.
 */
function entry(index: number, description = `charge ${index}`): billing.LedgerEntry {
  return {
    id: `run_${index}:0:0`,
    workspaceId: 'ws_1',
    kind: 'charge',
    amount: { millicredits: -1_500 },
    description,
    runId: `run_${index}`,
    holdId: `run_${index}`,
    userId: 'usr_1',
    sessionId: '',
    createdAtMs: Date.UTC(2026, 0, 1) + index,
    balanceAfter: { millicredits: 1_000_000 - 1_500 * (index + 1) },
  };
}

function gateway(billingClient: Partial<Clients['billing']>) {
  return gatewayOver({
    auth: {
      resolveBearer: async () => ({ caller: OWNER }),
      getWorkspace: async () => ({ workspace: undefined, user: undefined, role: 'owner', seatsUsed: 3 }),
    },
    billing: billingClient,
  });
}

const bearer = { authorization: 'Bearer rde_live_test' };

describe('GET /api/v2/billing/ledger.csv', () => {
  test('streams every page, oldest first, one row per entry', async () => {
    const ledger = Array.from({ length: 1_201 }, (_, index) => entry(index));
    const offsets: number[] = [];
    const app = await gateway({
      listLedger: async ({ page }: billing.ListLedgerRequest) => {
        offsets.push(page!.offset);
        const entries = ledger.slice(page!.offset, page!.offset + page!.limit);
        return { entries, page: { offset: page!.offset, limit: page!.limit, total: ledger.length } };
      },
    });
    const response = await app.inject({ method: 'GET', url: '/api/v2/billing/ledger.csv', headers: bearer });
    expect(response.statusCode).toBe(200);
    const lines = response.body.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + ledger.length);
    expect(lines[1]).toBe('run_0:0:0,2026-01-01T00:00:00.000Z,charge,-1.5,998.5,charge 0,run_0,usr_1,,');
    expect(lines.at(-1)).toMatch(/^run_1200:0:0,/);
    expect(offsets).toEqual([0, 500, 1_000]);
  });

  test('quotes commas and defuses spreadsheet formulas in descriptions', async () => {
    const app = await gateway({
      listLedger: async () => ({
        entries: [entry(0, 'search, page 2'), entry(1, '=HYPERLINK("http://x")')],
        page: { offset: 0, limit: 500, total: 2 },
      }),
    });
    const lines = (await app.inject({ method: 'GET', url: '/api/v2/billing/ledger.csv', headers: bearer })).body.split(
      '\n',
    );
    expect(lines[1]).toContain(',"search, page 2",');
    expect(lines[2]).toContain(`,"'=HYPERLINK(""http://x"")",`);
  });

  test('a failure before the first row is the service’s error, not a broken CSV', async () => {
    const app = await gateway({
      listLedger: async () => {
        throw errors.unavailable('A downstream service is unavailable');
      },
    });
    const response = await app.inject({ method: 'GET', url: '/api/v2/billing/ledger.csv', headers: bearer });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ detail: 'A downstream service is unavailable' });
  });
});

describe('GET /billing/balance', () => {
  test('while a hold is open, _meta is provisional: balance less what is held, not settled', async () => {
    const app = await gateway({
      getBalance: async () => ({
        account: {
          workspaceId: 'ws_1',
          balance: { millicredits: 90_000 },
          reserved: { millicredits: 12_500 },
          available: { millicredits: 77_500 },
          openHolds: 1,
        },
        recentEntries: [],
        planStateJson: Buffer.from(
          JSON.stringify({
            plan: null,
            subscription: null,
            can_buy_credits: false,
            beta: false,
            seats: { limit: null },
          }),
        ),
      }),
    });
    const response = await app.inject({ method: 'GET', url: '/billing/balance', headers: bearer });
    expect(response.json()).toMatchObject({
      balance: 90,
      reserved: 12.5,
      available: 77.5,
      seats: { used: 3, limit: null },
      _meta: { balance: 77.5, reserved: 12.5, settled: false },
    });
  });
});
