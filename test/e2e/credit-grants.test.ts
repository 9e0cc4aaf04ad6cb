import { api } from './api';
import { freePort, mode, startRde, waitUntil, type RunningRde } from './harness';
import { NO_STRIPE_ENV } from './stripe';
import { newTeam, type Team } from './teams';

jest.setTimeout(180_000);

/** What the workspace of `key` sees of its money: the balance route, the overview's buckets, the CSV rows. */
async function moneyOf(rde: RunningRde, key: string) {
  const [balance, overview, csv] = await Promise.all([
    api(rde, 'GET', '/billing/balance', { key }),
    api(rde, 'GET', '/api/v2/billing/overview', { key }),
    api(rde, 'GET', '/api/v2/billing/ledger.csv', { key }),
  ]);
  return {
    balance: balance.body.balance,
    available: balance.body.available,
    ledger: balance.body.recent_ledger,
    buckets: overview.body.buckets,
    csvRows: csv.text.trimEnd().split('\n').slice(1),
  };
}

const ISO_TIME = /^\d{4}-\d\d-\d\dT.*Z$/;

/** Decision 0051: credits an operator grants with `rde admin grant-credits`, seen by the workspace. */
describe(`rde admin grant-credits (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde(NO_STRIPE_ENV);
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const grant = async (...args: string[]) => JSON.parse(await rde.admin(['grant-credits', ...args]));
  const grantTo = (team: Team, ...args: string[]) => grant('--workspace', team.workspaceId, ...args);

  test('writes a grant the owner sees in the ledger (JSON and CSV) with its reason; the balance is up by exactly N', async () => {
    const team = await newTeam(rde, 'grant');
    const reason = 'Onboarding credits, ticket #42';
    const granted = await grantTo(team, '--credits', '2500', '--reason', reason, '--grant-id', 'onboarding-42');
    expect(granted).toEqual({
      workspace_id: team.workspaceId,
      grant_id: 'onboarding-42',
      entry_id: 'grant:operator:onboarding-42',
      kind: 'grant',
      credits: 2500,
      reason,
      granted_by: expect.stringMatching(/.@./),
      balance_after: 2600,
      created_at: expect.stringMatching(ISO_TIME),
    });
    const money = await moneyOf(rde, team.owner);
    expect(money.balance).toBe(100 + 2500);
    expect(money.available).toBe(100 + 2500);
    expect(money.ledger[0]).toEqual({
      id: 'grant:operator:onboarding-42',
      created_at: expect.stringMatching(ISO_TIME),
      kind: 'grant',
      amount: 2500,
      balance_after: 2600,
      description: reason,
      run_id: null,
      user_id: null,
      session_id: null,
      workflow_run_id: null,
    });
    expect(money.csvRows).toEqual([
      expect.stringMatching(new RegExp(`^grant:free:${team.workspaceId},`)),
      expect.stringMatching(
        /^grant:operator:onboarding-42,\d{4}-[^,]+Z,grant,2500,2600,"Onboarding credits, ticket #42",,,,$/,
      ),
    ]);
    // The purchased bucket (decision 0040): never cut at a rollover, spent after plan credits.
    expect(money.buckets).toMatchObject({ plan_remaining: 100, purchased_remaining: 2500, purchased_credits: 2500 });
    // A member of the workspace reads the same ledger.
    expect((await moneyOf(rde, team.member)).ledger[0]).toMatchObject({ id: 'grant:operator:onboarding-42' });
  });

  test('a retry with the same --grant-id grants once; the id for another grant is refused', async () => {
    const team = await newTeam(rde, 'regrant');
    const args = ['--credits', '300', '--reason', 'Goodwill', '--grant-id', 'goodwill-7'];
    const first = await grantTo(team, ...args);
    const again = await grantTo(team, ...args);
    expect(again).toEqual(first);
    await expect(grantTo(team, '--credits', '301', '--reason', 'Goodwill', '--grant-id', 'goodwill-7')).rejects.toThrow(
      /exit 1\).*409 .*grant_id goodwill-7 was already used for another grant/,
    );
    const other = await newTeam(rde, 'regrant');
    await expect(grantTo(other, ...args)).rejects.toThrow(/exit 1\).*409 /);
    const money = await moneyOf(rde, team.owner);
    expect(money.balance).toBe(100 + 300);
    expect(money.csvRows.filter((row) => row.startsWith('grant:operator:'))).toHaveLength(1);
    expect((await moneyOf(rde, other.owner)).balance).toBe(100);
  });

  test('a grant that failed on the way names its grant id; the rerun with it grants once', async () => {
    const team = await newTeam(rde, 'rerun');
    const billingDown = { RDE_BILLING_ADDR: `127.0.0.1:${await freePort()}` };
    const failure = await rde
      .admin(['grant-credits', '--workspace', team.workspaceId, '--credits', '40', '--reason', 'Rerun'], billingDown)
      .then(
        () => '',
        (error: Error) => error.message,
      );
    const [, grantId] = /exit 1\).*"rerun_with":"--grant-id ([\w-]+)"/.exec(failure) ?? [];
    expect(grantId).toBeDefined();
    expect((await moneyOf(rde, team.owner)).balance).toBe(100);
    for (let run = 0; run < 2; run++) {
      await grantTo(team, '--credits', '40', '--reason', 'Rerun', '--grant-id', grantId!);
    }
    expect((await moneyOf(rde, team.owner)).balance).toBe(140);
  });

  test('without --grant-id every run is a grant of its own', async () => {
    const team = await newTeam(rde, 'autogrant');
    const first = await grantTo(team, '--credits', '10', '--reason', 'Top-up for a demo');
    const second = await grantTo(team, '--credits', '10', '--reason', 'Top-up for a demo');
    expect(first.grant_id).not.toBe(second.grant_id);
    expect((await moneyOf(rde, team.owner)).balance).toBe(100 + 20);
  });

  test.each([
    ['no --reason', ['--credits', '10'], /exit 2\).*missing --reason/],
    ['an empty --reason', ['--credits', '10', '--reason', ''], /exit 2\).*missing --reason/],
    ['a blank reason', ['--credits', '10', '--reason', '   '], /exit 1\).*400 .*reason must be 1 to 200 characters/],
    ['a reason too long', ['--credits', '10', '--reason', 'x'.repeat(201)], /exit 1\).*400 .*reason must be 1 to 200/],
    ['no --credits', ['--reason', 'why'], /exit 2\).*missing --credits/],
    [
      'zero credits',
      ['--credits', '0', '--reason', 'why'],
      /exit 1\).*400 .*credits must be a whole number from 1 to 1000000/,
    ],
    ['negative credits', ['--credits=-5', '--reason', 'why'], /exit 1\).*400 .*credits must be a whole number from 1/],
    [
      'fractional credits',
      ['--credits', '1.5', '--reason', 'why'],
      /exit 2\).*--credits must be a whole number of credits/,
    ],
    [
      'credits in words',
      ['--credits', 'lots', '--reason', 'why'],
      /exit 2\).*--credits must be a whole number of credits/,
    ],
    ['too many credits', ['--credits', '1000001', '--reason', 'why'], /exit 1\).*400 .*from 1 to 1000000/],
    ['a huge figure', ['--credits', '99999999999999999999', '--reason', 'why'], /exit 2\).*--credits must be a whole/],
    [
      'a malformed grant id',
      ['--credits', '10', '--reason', 'why', '--grant-id', 'a b'],
      /exit 1\).*400 .*grant_id must/,
    ],
    ['an unknown option', ['--credits', '10', '--reason', 'why', '--force'], /exit 2\).*Unknown option '--force'/],
  ])('%s is refused with a clear error and changes nothing', async (_case, args, error) => {
    const team = await newTeam(rde, 'badgrant');
    const before = await moneyOf(rde, team.owner);
    await expect(grantTo(team, ...args)).rejects.toThrow(error);
    expect(await moneyOf(rde, team.owner)).toEqual(before);
  });

  test('an unknown workspace is refused (404) and nothing is granted anywhere', async () => {
    const team = await newTeam(rde, 'nowhere');
    await expect(
      grant(
        '--workspace',
        'ws_nope',
        '--credits',
        '10',
        '--reason',
        'why',
        '--grant-id',
        `nowhere-${team.workspaceId}`,
      ),
    ).rejects.toThrow(/exit 1\).*404 .*Workspace not found/);
    // The id was never used: the same grant to a real workspace still lands, once.
    await grantTo(team, '--credits', '10', '--reason', 'why', '--grant-id', `nowhere-${team.workspaceId}`);
    expect((await moneyOf(rde, team.owner)).balance).toBe(110);
  });

  test('no public route grants credits: neither an owner nor a member key reaches one', async () => {
    const team = await newTeam(rde, 'nopublic');
    const before = await moneyOf(rde, team.owner);
    const body = { workspace_id: team.workspaceId, credits: 1000, reason: 'free money', grant_id: 'sneaky' };
    for (const key of [team.owner, team.member]) {
      for (const path of ['/api/v2/billing/grants', '/api/v2/billing/credits/grant', '/api/v2/billing/grant-credits']) {
        expect({ path, status: (await api(rde, 'POST', path, { key, body })).status }).toEqual({ path, status: 404 });
      }
    }
    const document = (await api(rde, 'GET', '/openapi.json', { key: null })).body;
    const billingRoutes = Object.keys(document.paths).filter((path) => path.includes('billing'));
    expect(billingRoutes.filter((path) => /grant/i.test(path))).toEqual([]);
    expect(await moneyOf(rde, team.owner)).toEqual(before);
  });

  test('the stripe_disabled 503 tells a developer to grant credits instead', async () => {
    const response = await api(rde, 'POST', '/api/v2/billing/credits/checkout', { body: { credits: 500 } });
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({
      error: 'stripe_disabled',
      detail: expect.stringContaining('RDE_STRIPE_SECRET_KEY'),
    });
    expect(response.body.detail).toContain('rde admin grant-credits --workspace ws_dev');
  });
});

/** Decision 0051: the dev workspace starts with RDE_DEV_GRANT_CREDITS, granted once. */
describe(`the dev workspace's starting grant (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde({ RDE_DEV_GRANT_CREDITS: '10000' });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const startingGrant = {
    id: 'grant:operator:dev-workspace-start',
    created_at: expect.stringMatching(ISO_TIME),
    kind: 'grant',
    amount: 10_000,
    balance_after: 10_100,
    description: 'Development credits (RDE_DEV_GRANT_CREDITS)',
    run_id: null,
    user_id: null,
    session_id: null,
    workflow_run_id: null,
  };

  test('a ready RDE has granted the dev workspace its starting credits, once, beside the free grant', async () => {
    const money = await moneyOf(rde, rde.ownerKey);
    expect(money.balance).toBe(10_100);
    expect(money.ledger).toEqual([startingGrant, expect.objectContaining({ id: 'grant:free:ws_dev', amount: 100 })]);
  });

  (mode === 'distributed' ? test : test.skip)('a restart of auth never grants twice', async () => {
    await rde.stopModule('auth');
    await rde.restartModule('auth');
    // The gateway's channel to auth reconnects after the restart.
    await waitUntil(async () => (await api(rde, 'GET', '/billing/balance')).status === 200, 30_000);
    const money = await moneyOf(rde, rde.ownerKey);
    expect(money.balance).toBe(10_100);
    expect(money.csvRows.filter((row) => row.startsWith('grant:operator:'))).toHaveLength(1);
  });
});
