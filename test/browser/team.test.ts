import { api } from '../e2e/api';
import { nthMailTo } from '../e2e/mail';
import { freshEmail, withCookie } from '../e2e/sign-in';
import { STRIPE_ENV } from '../e2e/stripe';
import { dashboardSuite, loopbackContext, watchedPage } from './browser';
import { invitedLogin } from './cli-invite';
import { checkPage, downloaded, open, sessionOf, shown, signedIn, signInByCode } from './pages';

jest.setTimeout(180_000);

describe('Dashboard: members, invites and billing in a real browser (all-in-one, payments on stripe-mock)', () => {
  const suite = dashboardSuite(STRIPE_ENV);
  const region = (name: string) => suite.page.getByRole('region', { name });
  const overview = async () =>
    (await api(suite.rde, 'GET', '/api/v2/billing/overview', withCookie(await sessionOf(suite.context)))).body;

  test('an invite: the emailed link signs the invitee in to the workspace as a member, who reads it and is refused owner actions', async () => {
    const owner = await signedIn(suite, '/app/members');
    const invitee = freshEmail('browser-invitee');
    await shown(region('Members').getByRole('rowheader', { name: /\(you\)$/ }));
    await region('Invite a member').getByLabel('Email').fill(invitee);
    await region('Invite a member').getByLabel('Spend cap over 30 days, USD (optional)').fill('5');
    await region('Invite a member').getByRole('button', { name: 'Send the invite' }).click();
    expect(await shown(region('Invite a member').getByRole('status'))).toContain(invitee);
    const invited = region('Invites').getByRole('row', { name: new RegExp(invitee) });
    expect(await shown(invited)).toMatch(/\$5\.00.*not yet/);
    await checkPage(suite.page, 'members');

    // The invitee, in a browser of their own, follows the emailed link.
    const link = new URL(/(http\S+auth\/signin\?invite_code=\S+)/.exec((await nthMailTo(invitee)).text)![1]!);
    expect(link.origin).toBe(new URL(suite.rde.baseUrl).origin);
    const theirs = await loopbackContext(suite.browser);
    const { page, complaints } = await watchedPage(theirs);
    await page.goto(link.href);
    await signInByCode(page, invitee, 2);
    expect(await shown(page.getByText(/^Signed in as/))).toContain(`Workspace: ${owner}'s workspace (member)`);

    await open(page, suite.rde, '/app/members');
    await shown(
      page.getByText('Only the workspace owner can invite members, change their caps and roles, or remove them.'),
    );
    expect(await page.getByRole('region', { name: 'Invite a member' }).count()).toBe(0);
    const members = page.getByRole('region', { name: 'Members' });
    expect(await shown(members.getByRole('row', { name: /\(you\)/ }))).toMatch(/member.*\$5\.00/);

    await open(page, suite.rde, '/app/billing');
    const cap = page.getByRole('region', { name: 'Spending cap' });
    await cap.getByLabel('Cap in credits').fill('50');
    await cap.getByRole('button', { name: 'Set the cap' }).click();
    expect(await shown(cap.getByRole('alert'))).toBe('Only the workspace owner can manage billing.');
    expect((await overview()).spending_cap).toBeNull();
    expect(complaints).toEqual([]);
    await theirs.close();

    // The owner now sees the invitee joined, and sets then removes their cap.
    await suite.page.reload();
    expect(await shown(invited)).not.toContain('not yet');
    const capForm = region("A member's spend cap");
    await capForm.getByLabel('Cap over 30 days, USD').fill('7.5');
    await capForm.getByRole('button', { name: "Set the member's cap" }).click();
    const memberRow = region('Members')
      .getByRole('row', { name: /member/ })
      .filter({ hasNotText: '(you)' });
    await memberRow.getByText('$7.50').waitFor();
    await capForm.getByRole('button', { name: "Remove the member's cap" }).click();
    await memberRow.getByText('none').waitFor();
  });

  test('an invite to an address the API refuses is explained in its sentence, and nothing is stored', async () => {
    await signedIn(suite, '/app/members');
    await region('Invite a member').getByLabel('Email').fill('someone@localhost');
    await region('Invite a member').getByRole('button', { name: 'Send the invite' }).click();
    expect(await shown(region('Invite a member').getByRole('alert'))).toBe('someone@localhost is not an email address');
    expect(await region('Invites').getByRole('row').count()).toBe(1);
  });

  test('billing: plan, balance, ledger and its CSV; the spending cap set and removed', async () => {
    await signedIn(suite, '/app/billing');
    expect(await shown(suite.page.getByTestId('plan'))).toBe('Free');
    expect(await shown(suite.page.getByTestId('balance'))).toBe('100 credits');
    expect(await shown(region('Ledger').getByRole('row').nth(1))).toMatch(/grant.*\+100/);
    await checkPage(suite.page, 'billing');

    const cap = region('Spending cap');
    expect(await shown(cap.getByTestId('spending-cap'))).toMatch(/^No cap/);
    await cap.getByLabel('Cap in credits').fill('250');
    await cap.getByRole('button', { name: 'Set the cap' }).click();
    await cap.getByText(/^Capped at 250 credits/).waitFor();
    expect((await overview()).spending_cap).toBe(250);
    await cap.getByRole('button', { name: 'Remove the cap' }).click();
    await cap.getByText(/^No cap/).waitFor();
    expect((await overview()).spending_cap).toBeNull();

    const csv = await downloaded(
      suite.page,
      region('Ledger').getByRole('link', { name: 'Download the whole ledger (CSV)' }),
    );
    const fromApi = await api(
      suite.rde,
      'GET',
      '/api/v2/billing/ledger.csv',
      withCookie(await sessionOf(suite.context)),
    );
    expect(csv).toBe(fromApi.text);
  });

  test('checkout and the portal are offered as the payment provider’s pages; a top-up on Free is refused with the reason', async () => {
    await signedIn(suite, '/app/billing');
    for (const [title, submit] of [
      ['Subscribe', 'Go to checkout'],
      ['Payment details and invoices', 'Open the customer portal'],
    ] as const) {
      await region(title).getByRole('button', { name: submit }).click();
      const link = region(title).getByRole('link', { name: 'Continue to the payment provider' });
      await link.waitFor();
      expect(new URL((await link.getAttribute('href'))!).protocol).toBe('https:');
    }
    await region('Buy credits').getByRole('button', { name: 'Go to checkout for credits' }).click();
    expect(await shown(region('Buy credits').getByRole('alert'))).not.toMatch(/[{}]/);
    expect(await region('Buy credits').getByRole('link', { name: 'Continue to the payment provider' }).count()).toBe(0);
  });

  test('every link of the navigation lands on a page of the dashboard', async () => {
    await signedIn(suite, '/app/');
    const nav = suite.page.getByRole('navigation', { name: 'Dashboard' });
    const names = await nav.getByRole('link').allTextContents();
    expect(names).toEqual(expect.arrayContaining(['Members', 'Billing', 'Datasets']));
    for (const name of names) {
      const href = (await nav.getByRole('link', { name }).getAttribute('href'))!;
      await Promise.all([suite.page.waitForURL(`**${href}`), nav.getByRole('link', { name }).click()]);
      const heading = await shown(suite.page.getByRole('heading', { level: 1 }));
      expect({ name, heading }).not.toEqual({ name, heading: 'Page not found' });
      expect(await suite.page.getByRole('link', { name: 'Sign in to see this page' }).count()).toBe(0);
    }
  });

  test('the CLI’s `rde login --invite` link opens the sign-in page; signing in there gives the CLI a key for the team', async () => {
    await signedIn(suite, '/app/members');
    const invitee = freshEmail('browser-cli-invitee');
    const invite = await api(suite.rde, 'POST', '/api/v2/workspace/invites', {
      ...withCookie(await sessionOf(suite.context)),
      body: { email: invitee },
    });
    const login = await invitedLogin(suite.rde.baseUrl, invite.body.invite_code);

    const theirs = await loopbackContext(suite.browser);
    const { page, complaints } = await watchedPage(theirs);
    await page.goto(login.link);
    expect(new URL(page.url()).pathname).toBe('/app/auth/signin');
    await shown(page.getByText(/then approve the command line .* for the team that invited you/));
    await signInByCode(page, invitee, 2);
    const approval = page.getByRole('region', { name: 'Approve the command line' });
    expect(await approval.getByLabel('Invite code (optional)').inputValue()).toBe(invite.body.invite_code);
    await approval.getByRole('button', { name: 'Approve' }).click();
    expect(await shown(approval.getByRole('status'))).toContain('The command line is signed in');
    expect(await login.exited).toBe(0);
    const saved = await login.saved();
    const me = await api(suite.rde, 'GET', '/api/v2/me', { key: saved.token });
    expect(me.body).toMatchObject({ role: 'member', workspace: { id: (await overviewMe()).workspace.id } });
    expect(complaints).toEqual([]);
    await theirs.close();
  });

  const overviewMe = async () =>
    (await api(suite.rde, 'GET', '/api/v2/me', withCookie(await sessionOf(suite.context)))).body;
});
