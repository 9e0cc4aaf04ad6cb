import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { STRIPE_ENV } from '../e2e/stripe';
import { QUICK_RUNS_ENV, enrichmentSupport } from './enrichment-support';

jest.setTimeout(240_000);

/**
 * Rule 2 of Dataset enrichment runs with payments configured (stripe-mock): the 402 of a run the
 * balance cannot cover one row of carries `checkout_url` (decision 0046). runs.test.ts has the
 * same refusal without a payment provider, and no `checkout_url`.
 */
describe(`dataset enrichment runs with payments configured (${mode})`, () => {
  let rde: RunningRde;
  const { workspace, peopleRows, knobs, resetKnobs, callsDuring, settled, charges } = enrichmentSupport(() => rde);

  beforeAll(async () => {
    rde = await startRde({ ...QUICK_RUNS_ENV, ...STRIPE_ENV });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  afterEach(() => resetKnobs());

  const run = (key: string, body: object) => api(rde, 'POST', '/enrich/run', { key, body });

  test('rule 2: short of one row, the 402 carries checkout_url; nothing is held, charged or asked of a vendor', async () => {
    const key = await workspace();
    // Nearly every row hits, so a run of 120 rows spends the free grant's 100 credits to the last.
    await knobs('mailfinder', { hit_rate_multiplier: 100 });
    const spender = await run(key, { input_rows: await peopleRows(6500, 120), steps: ['email_enrichment'] });
    expect(spender.status).toBe(200);
    const balanceOf = async () => {
      const { balance, reserved } = await settled(key, 60_000);
      return { balance, reserved };
    };
    const before = { balance: await balanceOf(), ledger: await charges(key) };
    expect(before.balance.balance).toBeLessThan(1);

    const rows = await peopleRows(6700, 5);
    const { result: refused, calls } = await callsDuring(() =>
      run(key, { input_rows: rows, steps: ['email_enrichment'] }),
    );
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 402,
      body: expect.objectContaining({
        error: 'insufficient_credits',
        checkout_url: expect.stringMatching(/^https:\/\//),
      }),
    });
    expect(calls).toEqual({});
    expect(await balanceOf()).toEqual(before.balance);
    expect(await charges(key)).toEqual(before.ledger);
  });
});
