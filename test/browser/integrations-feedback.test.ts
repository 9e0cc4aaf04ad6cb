import { api } from '../e2e/api';
import { mailsTo, mailWithSubject } from '../e2e/mail';
import { reserveIssuer, startOidcProvider, type RunningOidcProvider } from '../e2e/oidc';
import { freshEmail, withCookie } from '../e2e/sign-in';
import { dashboardSuite } from './browser';
import { checkPage, open, sessionOf, shown, signedIn } from './pages';

jest.setTimeout(180_000);

/** A CRM whose vendor lends RDE a managed app, and an ATS a workspace connects with its own app. */
const MANAGED = { client_id: 'crm-managed-app', client_secret: 'managed-secret-for-browser-tests' };
const OWN = { client_id: 'ats-own-app', client_secret: 'workspace-own-secret-for-browser-tests' };
const SUPPORT_INBOX = `support.browser.${Date.now()}@example.com`;
const callbackPath = (provider: string) => `/api/v2/integrations/${provider}/oauth/callback`;

describe('Dashboard: integrations, feedback and support in a real browser (all-in-one, a vendor on loopback)', () => {
  let vendorPort: number;
  let vendor: RunningOidcProvider;
  const suite = dashboardSuite(async () => {
    const { port, issuer } = await reserveIssuer();
    vendorPort = port;
    const endpoints = { issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token` };
    const vendors = {
      acme_crm: { ...endpoints, scope: 'openid', ...MANAGED },
      acme_ats: { ...endpoints, scope: 'openid' },
    };
    return { RDE_INTEGRATIONS: JSON.stringify(vendors), RDE_SUPPORT_INBOX: SUPPORT_INBOX };
  });
  beforeAll(async () => {
    // The vendor's consent signs its default account in and allows, as a person clicking "allow" would.
    vendor = await startOidcProvider(vendorPort, [
      { ...MANAGED, redirect_uris: [`${suite.rde.baseUrl}${callbackPath('acme_crm')}`] },
      { ...OWN, redirect_uris: [`${suite.rde.baseUrl}${callbackPath('acme_ats')}`] },
    ]);
  });
  afterAll(async () => vendor?.stop());

  const region = (name: string) => suite.page.getByRole('region', { name });
  const supportMail = (title: string) => mailWithSubject(SUPPORT_INBOX, title);
  const row = (provider: string) => region('Providers').getByRole('row', { name: new RegExp(`^${provider}`) });
  const listedByApi = async () =>
    (await api(suite.rde, 'GET', '/api/v2/integrations', withCookie(await sessionOf(suite.context)))).body
      .integrations as { provider: string; connected: boolean; app: string }[];

  test("connect with RDE's app, keyboard only: the vendor's consent, the callback, back on the page connected; then disconnect", async () => {
    await signedIn(suite, '/app/integrations');
    expect(await shown(row('acme_ats'))).toMatch(/Not connected.*none yet: save your app first/);
    expect(await shown(row('acme_crm'))).toMatch(/Not connected.*RDE's app/);
    await checkPage(suite.page, 'integrations');

    await row('acme_crm').getByRole('button', { name: 'Connect acme_crm', exact: true }).focus();
    await Promise.all([
      suite.page.waitForRequest((request) => request.url().startsWith(`${vendor.issuer}/auth?`)),
      suite.page.keyboard.press('Enter'),
    ]);
    expect(await shown(suite.page.getByRole('status').filter({ hasText: 'Connected to' }))).toBe(
      'Connected to acme_crm.',
    );
    await suite.page.waitForURL(`${suite.rde.baseUrl}/app/integrations`);
    expect(await shown(row('acme_crm'))).toMatch(/Connected since/);
    expect(await listedByApi()).toContainEqual(expect.objectContaining({ provider: 'acme_crm', connected: true }));
    await checkPage(suite.page, 'integrations-connected');

    // A reload does not repeat the outcome: the address lost its flag.
    await suite.page.reload();
    await shown(row('acme_crm').getByRole('button', { name: 'Disconnect acme_crm', exact: true }));
    expect(await suite.page.getByText('Connected to acme_crm.').count()).toBe(0);

    await row('acme_crm').getByRole('button', { name: 'Disconnect acme_crm', exact: true }).focus();
    await suite.page.keyboard.press('Enter');
    await row('acme_crm').getByText('Not connected').waitFor();
    await shown(row('acme_crm').getByRole('button', { name: 'Connect acme_crm', exact: true }));
    expect(await listedByApi()).toContainEqual(expect.objectContaining({ provider: 'acme_crm', connected: false }));
  });

  test('a provider without an app is refused with the API’s sentence; the saved app then connects', async () => {
    await signedIn(suite, '/app/integrations');
    await row('acme_ats').getByRole('button', { name: 'Connect acme_ats', exact: true }).click();
    expect(await shown(region('Providers').getByRole('alert'))).toBe(
      'There is no acme_ats app to connect with: save your OAuth app credentials first',
    );
    expect(new URL(suite.page.url()).pathname).toBe('/app/integrations');

    const form = region('Your own OAuth app');
    await form.getByLabel('Provider').selectOption('acme_ats');
    await form.getByLabel('Client ID').fill(OWN.client_id);
    await form.getByLabel('Client secret').fill(OWN.client_secret);
    await form.getByRole('button', { name: 'Save the app' }).click();
    expect(await shown(form.getByRole('status'))).toBe('Saved your acme_ats app. Connect acme_ats to use it.');
    expect(await shown(row('acme_ats'))).toMatch(/Not connected.*your own app/);

    await row('acme_ats').getByRole('button', { name: 'Connect acme_ats', exact: true }).click();
    await shown(suite.page.getByText('Connected to acme_ats.'));
    expect(await shown(row('acme_ats'))).toMatch(/Connected since.*your own app/);
  });

  test('a failed callback lands on the page with its error said in a sentence; a crafted provider name is not repeated', async () => {
    await signedIn(suite, '/app/integrations');
    // The browser reaches the callback with a state no connect minted (and no state cookie).
    await open(suite.page, suite.rde, `${callbackPath('acme_crm')}?state=forged&code=stolen`);
    const refused = suite.page.getByRole('alert');
    expect(await shown(refused)).toBe(
      'Connecting to acme_crm failed: consent was refused, or the connect link expired or was already used. ' +
        'Nothing was saved; connect again.',
    );
    expect(new URL(suite.page.url()).pathname).toBe('/app/integrations');
    expect(await shown(row('acme_crm'))).toMatch(/Not connected/);
    await checkPage(suite.page, 'integrations-error');

    await open(suite.page, suite.rde, `/app/integrations?error=connect&provider=${encodeURIComponent('Call +1 555')}`);
    expect(await shown(suite.page.getByRole('alert'))).toMatch(/^Connecting to the provider failed/);
  });

  test('feedback: sent from the page, listed newest first with its first line as the title, paged', async () => {
    await signedIn(suite, '/app/feedback');
    const send = region('Send feedback');
    await send.getByLabel('Kind').selectOption('idea');
    await send.getByLabel('Feedback (the first line is its title)').fill('Search misses interns\nNobody is found.');
    await send.getByRole('button', { name: 'Send feedback' }).click();
    expect(await shown(send.getByRole('status'))).toBe('Thank you: “Search misses interns” is listed below.');
    const list = region("Your workspace's feedback");
    expect(await shown(list.getByRole('row').nth(1))).toMatch(/^Search misses internsNobody is found\.idea/);
    await checkPage(suite.page, 'feedback');

    const bearer = withCookie(await sessionOf(suite.context));
    for (let n = 1; n <= 10; n++) {
      await api(suite.rde, 'POST', '/api/v2/feedback', { ...bearer, body: { message: `Report ${n}` } });
    }
    await suite.page.reload();
    const titles = () => list.getByRole('rowheader').allTextContents();
    await shown(list.getByText('1–10 of 11'));
    expect(await titles()).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((n) => `Report ${n}`));
    await list.getByRole('button', { name: 'Next' }).click();
    await shown(list.getByText('11–11 of 11'));
    expect(await titles()).toEqual(['Search misses interns']);
  });

  test('feedback of only spaces is refused with the API’s sentence, and nothing is listed', async () => {
    await signedIn(suite, '/app/feedback');
    const send = region('Send feedback');
    await send.getByLabel('Feedback (the first line is its title)').fill('   ');
    await send.getByRole('button', { name: 'Send feedback' }).click();
    expect(await shown(send.getByRole('alert'))).not.toMatch(/[{}]|HTTP/);
    await shown(region("Your workspace's feedback").getByText('No feedback from this workspace yet.'));
  });

  test('support signed in: a technical report is emailed to the inbox and listed as feedback', async () => {
    await signedIn(suite, '/app/feedback');
    const support = region('Contact support');
    await support.getByLabel('Topic').selectOption('technical');
    await support.getByLabel('Message (the first line is its subject)').fill('Export stops\nAt row 10.');
    await support.getByRole('button', { name: 'Send to support' }).click();
    expect(await shown(support.getByRole('status'))).toBe('Sent to support, and listed with your feedback.');
    await supportMail('Export stops');
    await shown(region("Your workspace's feedback").getByRole('rowheader', { name: 'Export stops' }));
  });

  test('support signed out, keyboard only: the form needs a reply address and emails the inbox', async () => {
    await open(suite.page, suite.rde, '/app/feedback');
    await shown(suite.page.getByRole('heading', { level: 1, name: 'Contact support' }));
    await shown(suite.page.getByRole('link', { name: 'Sign in' }));
    expect(await region('Send feedback').count()).toBe(0);
    await checkPage(suite.page, 'support-signed-out');

    const support = region('Contact support');
    const reply = freshEmail('browser-visitor');
    await support.getByLabel('Message (the first line is its subject)').focus();
    await suite.page.keyboard.type('Pricing question');
    await suite.page.keyboard.press('Enter');
    await suite.page.keyboard.type('Do you bill per seat?');
    await suite.page.keyboard.press('Tab');
    // Sent without a reply address, the browser's own check stops the form before it leaves.
    await suite.page.keyboard.press('Enter');
    const replyField = support.getByLabel('Your email for the answer');
    expect(await replyField.evaluate((input) => input.matches(':focus:invalid'))).toBe(true);
    await suite.page.keyboard.type(reply);
    await suite.page.keyboard.press('Enter');
    expect(await shown(support.getByRole('status'))).toBe('Sent to support.');
    const mail = await supportMail('Pricing question');
    expect(mail.replyTo).toEqual([reply]);
    expect(mail.text).toContain('Do you bill per seat?');
    const sent = (await mailsTo(SUPPORT_INBOX)).filter((each) => each.subject.includes('Pricing question'));
    expect(sent).toHaveLength(1);
  });

  test('support signed out: an address the API refuses is said in a sentence and nothing is sent', async () => {
    await open(suite.page, suite.rde, '/app/feedback');
    const support = region('Contact support');
    await support.getByLabel('Message (the first line is its subject)').fill('Refused address report');
    await support.getByLabel('Your email for the answer').fill('someone@localhost');
    await support.getByRole('button', { name: 'Send to support' }).click();
    expect(await shown(support.getByRole('alert'))).not.toMatch(/[{}]|HTTP/);
    expect((await mailsTo(SUPPORT_INBOX)).some((mail) => mail.subject.includes('Refused address report'))).toBe(false);
  });
});
