import { errors, type Logger } from '@rde/platform';
import type { billingGrants } from '@rde/proto';
import { DEV_GRANT_ID, grantDevCredits } from '../src/app/dev-grant';

/** What the starting grant logged, by level. */
function levelLogger(lines: string[]): Logger {
  const logger = {
    child: () => logger,
    info: (_fields: object, message: string) => lines.push(`info ${message}`),
    warn: (_fields: object, message: string) => lines.push(`warn ${message}`),
    error: (_fields: object, message: string) => lines.push(`error ${message}`),
    debug: () => undefined,
  };
  return logger as unknown as Logger;
}

/** Billing's grant rpc answering each call with the next of `answers` (an error is thrown). */
function billingAnswering(answers: Error[], asked: billingGrants.GrantCreditsRequest[]) {
  return () => ({
    async grantCredits(request: billingGrants.GrantCreditsRequest) {
      asked.push(request);
      const answer = answers.shift();
      if (answer) throw answer;
      return { entry: undefined, grantedBy: request.grantedBy };
    },
  });
}

/** Decision 0051: the dev workspace's starting grant as auth asks billing for it. */
describe('the dev workspace starting grant', () => {
  const never = new AbortController().signal;

  test('asks for the one fixed grant, and retries while billing is not up yet', async () => {
    const lines: string[] = [];
    const asked: billingGrants.GrantCreditsRequest[] = [];
    const connect = billingAnswering([errors.unavailable('billing is starting')], asked);
    await grantDevCredits(connect, 'ws_dev', 10_000, levelLogger(lines), never);
    expect(asked).toHaveLength(2);
    expect(asked[1]).toEqual({
      workspaceId: 'ws_dev',
      grantId: DEV_GRANT_ID,
      credits: 10_000,
      reason: 'Development credits (RDE_DEV_GRANT_CREDITS)',
      grantedBy: 'dev-workspace',
    });
    expect(asked[0]).toEqual(asked[1]);
    expect(lines).toEqual(['info dev workspace has its starting credits']);
  });

  test('a refusal (a starting grant of another figure already made) is not retried', async () => {
    const lines: string[] = [];
    const asked: billingGrants.GrantCreditsRequest[] = [];
    await grantDevCredits(
      billingAnswering([errors.conflict({ detail: 'used' })], asked),
      'ws_dev',
      5,
      levelLogger(lines),
      never,
    );
    expect(asked).toHaveLength(1);
    expect(lines).toEqual(['warn dev workspace starting grant refused']);
  });

  test('a stopping auth stops retrying at once', async () => {
    const lines: string[] = [];
    const asked: billingGrants.GrantCreditsRequest[] = [];
    const stopping = new AbortController();
    stopping.abort();
    const down = Array.from({ length: 5 }, () => errors.unavailable('down'));
    await grantDevCredits(billingAnswering(down, asked), 'ws_dev', 5, levelLogger(lines), stopping.signal);
    expect(asked).toHaveLength(1);
    expect(lines).toEqual(['error dev workspace starting grant failed; the next start retries it']);
  });

  test('without a billing address (auth alone) there is no grant, and a warning says so', async () => {
    const lines: string[] = [];
    const noAddress = () => {
      throw new Error('RDE_BILLING_ADDR is not set: no address for the billing service');
    };
    await grantDevCredits(noAddress, 'ws_dev', 5, levelLogger(lines), never);
    expect(lines).toEqual(['warn no billing address: the dev workspace gets no starting grant']);
  });
});
