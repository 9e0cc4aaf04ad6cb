import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api } from '../e2e/api';
import { startRde, type RunningRde } from '../e2e/harness';
import { nthMailTo, signInSecrets } from '../e2e/mail';
import { freshEmail } from '../e2e/sign-in';
import { launchBrowser, loopbackContext, watchedPage } from './browser';
import {
  checkPage,
  codeSection,
  focused,
  open,
  passwordSection,
  setPasswordLink,
  shown,
  signInByCode,
  signUpSection,
} from './pages';

jest.setTimeout(120_000);

const PASSWORD = 'correct horse battery staple';

describe('Dashboard: sign-in pages in a real browser (all-in-one)', () => {
  let rde: RunningRde;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let complaints: string[];

  beforeAll(async () => {
    [rde, browser] = await Promise.all([startRde(), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await rde?.stop();
  });

  // A fresh profile per test: no session cookie carries over.
  beforeEach(async () => {
    context = await loopbackContext(browser);
    ({ page, complaints } = await watchedPage(context));
  });

  afterEach(async () => {
    expect(complaints).toEqual([]);
    await context.close();
  });

  const home = () => page.getByRole('heading', { level: 1, name: 'Workspace' });

  test('GET / leads to the dashboard, whose page loads under its strict CSP and passes axe', async () => {
    await open(page, rde, '/');
    expect(new URL(page.url()).pathname).toBe('/app/');
    await shown(page.getByRole('link', { name: 'Sign in to see this page' }));
    await open(page, rde, '/app/auth/signin');
    await shown(page.getByRole('heading', { level: 1, name: 'Sign in to RDE' }));
    await checkPage(page, 'sign-in');
  });

  test('sign up with a password: the emailed link sets it, signs in, and the home page shows the account', async () => {
    const email = freshEmail('browser-signup');
    await open(page, rde, '/app/auth/signin');
    await signUpSection(page).getByLabel('Email').fill(email);
    await signUpSection(page).getByRole('button', { name: 'Email me a link to set a password' }).click();
    expect(await shown(signUpSection(page).getByRole('status'))).toContain(email);

    await open(page, rde, await setPasswordLink(email));
    await checkPage(page, 'set-password');
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await shown(home());
    await shown(page.getByText(email, { exact: true }));
    await checkPage(page, 'home');

    // Signed out, the same password signs in again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await shown(page.getByRole('heading', { level: 1, name: 'Sign in to RDE' }));
    await passwordSection(page).getByLabel('Email').fill(email);
    await passwordSection(page).getByLabel('Password').fill(PASSWORD);
    await passwordSection(page).getByRole('button', { name: 'Sign in with password' }).click();
    await shown(page.getByText(email, { exact: true }));
  });

  test('a wrong password is refused with the API’s sentence, not JSON, and the page stays', async () => {
    await open(page, rde, '/app/auth/signin');
    await passwordSection(page).getByLabel('Email').fill(freshEmail('nobody'));
    await passwordSection(page).getByLabel('Password').fill('not the password');
    await passwordSection(page).getByRole('button', { name: 'Sign in with password' }).click();
    expect(await shown(passwordSection(page).getByRole('alert'))).toBe('Invalid email or password');
    expect(new URL(page.url()).pathname).toBe('/app/auth/signin');
  });

  test('sign in by the emailed 6-digit code, keyboard only', async () => {
    const email = freshEmail('browser-code');
    await open(page, rde, '/app/auth/signin');
    await page.keyboard.press('Tab');
    expect(await focused(codeSection(page).getByLabel('Email'))).toBe(true);
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    expect(await shown(codeSection(page).getByRole('status'))).toContain(email);
    const { code } = signInSecrets(await nthMailTo(email));
    await codeSection(page).getByLabel('Code').focus();
    await page.keyboard.type(code);
    await page.keyboard.press('Enter');
    await shown(home());
    await shown(page.getByText(email, { exact: true }));
  });

  test('a wrong code is shown as the spec’s refusal and signs nobody in', async () => {
    const email = freshEmail('browser-wrong-code');
    await open(page, rde, '/app/auth/signin');
    await codeSection(page).getByLabel('Email').fill(email);
    await codeSection(page).getByRole('button', { name: 'Email me a code' }).click();
    const { code } = signInSecrets(await nthMailTo(email));
    await codeSection(page)
      .getByLabel('Code')
      .fill(code === '000000' ? '111111' : '000000');
    await codeSection(page).getByRole('button', { name: 'Sign in' }).click();
    expect(await shown(codeSection(page).getByRole('alert'))).not.toMatch(/[{}]/);
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('rde_session');
  });

  test('the emailed link signs in after one click; used again, it says so', async () => {
    const email = freshEmail('browser-link');
    await api(rde, 'POST', '/api/v2/auth/magic-link', { key: null, body: { email } });
    const mail = await nthMailTo(email);
    const link = new URL(/(http\S+auth\/verify\?token=\S+)/.exec(mail.text)![1]);
    expect(link.origin).toBe(new URL(rde.baseUrl).origin);
    await page.goto(link.href);
    await checkPage(page, 'verify');
    await page.getByRole('button', { name: 'Continue signing in' }).click();
    await shown(home());
    await shown(page.getByText(email, { exact: true }));

    await page.goto(link.href);
    await page.getByRole('button', { name: 'Continue signing in' }).click();
    await shown(page.getByRole('alert'));
    await shown(page.getByRole('link', { name: 'Ask for a new link' }));
  });

  test('a CLI sign-in: the approval URL opens the sign-in page, and the polling client gets its token', async () => {
    const started = await api(rde, 'POST', '/api/v2/auth/cli/start', { key: null, body: {} });
    const { approval_url: approvalUrl, poll_url: pollUrl } = started.body;
    await page.goto(approvalUrl);
    await shown(page.getByText('Signing in approves the command line'));
    await signInByCode(page, freshEmail('browser-cli'));
    expect(await shown(page.getByRole('status'))).toContain('The command line is signed in');
    const poll = await api(rde, 'GET', new URL(pollUrl).pathname, { key: null });
    expect(poll.body).toMatchObject({ status: 'approved', token: expect.stringMatching(/^rde_/) });
  });

  test('every request that leaves loopback is blocked', async () => {
    await expect(page.goto('https://example.com/')).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
  });
});
