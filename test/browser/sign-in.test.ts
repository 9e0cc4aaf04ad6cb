import { api } from '../e2e/api';
import { nthMailTo, signInSecrets } from '../e2e/mail';
import { freshEmail } from '../e2e/sign-in';
import { dashboardSuite } from './browser';
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
  statusSaying,
} from './pages';

jest.setTimeout(120_000);

const PASSWORD = 'correct horse battery staple';

describe('Dashboard: sign-in pages in a real browser (all-in-one)', () => {
  const suite = dashboardSuite();

  const home = () => suite.page.getByRole('heading', { level: 1, name: 'Workspace' });

  test('GET / leads to the dashboard, whose page loads under its strict CSP and passes axe', async () => {
    await open(suite.page, suite.rde, '/');
    expect(new URL(suite.page.url()).pathname).toBe('/app/');
    await shown(suite.page.getByRole('link', { name: 'Sign in to see this page' }));
    await open(suite.page, suite.rde, '/app/auth/signin');
    await shown(suite.page.getByRole('heading', { level: 1, name: 'Sign in to RDE' }));
    await checkPage(suite.page, 'sign-in');
  });

  test('sign up with a password: the emailed link sets it, signs in, and the home page shows the account', async () => {
    const email = freshEmail('browser-signup');
    await open(suite.page, suite.rde, '/app/auth/signin');
    await signUpSection(suite.page).getByLabel('Email').fill(email);
    await signUpSection(suite.page).getByRole('button', { name: 'Email me a link to set a password' }).click();
    expect(await shown(signUpSection(suite.page).getByRole('status'))).toContain(email);

    await open(suite.page, suite.rde, await setPasswordLink(email));
    await checkPage(suite.page, 'set-password');
    await suite.page.getByLabel('New password').fill(PASSWORD);
    await suite.page.getByRole('button', { name: 'Set password and sign in' }).click();
    await shown(home());
    await shown(suite.page.getByText(email, { exact: true }));
    await checkPage(suite.page, 'home');

    // Signed out, the same password signs in again.
    await suite.page.getByRole('button', { name: 'Sign out' }).click();
    await shown(suite.page.getByRole('heading', { level: 1, name: 'Sign in to RDE' }));
    await passwordSection(suite.page).getByLabel('Email').fill(email);
    await passwordSection(suite.page).getByLabel('Password').fill(PASSWORD);
    await passwordSection(suite.page).getByRole('button', { name: 'Sign in with password' }).click();
    await shown(suite.page.getByText(email, { exact: true }));
  });

  test('a wrong password is refused with the API’s sentence, not JSON, and the page stays', async () => {
    await open(suite.page, suite.rde, '/app/auth/signin');
    await passwordSection(suite.page).getByLabel('Email').fill(freshEmail('nobody'));
    await passwordSection(suite.page).getByLabel('Password').fill('not the password');
    await passwordSection(suite.page).getByRole('button', { name: 'Sign in with password' }).click();
    expect(await shown(passwordSection(suite.page).getByRole('alert'))).toBe('Invalid email or password');
    expect(new URL(suite.page.url()).pathname).toBe('/app/auth/signin');
  });

  test('sign in by the emailed 6-digit code, keyboard only', async () => {
    const email = freshEmail('browser-code');
    await open(suite.page, suite.rde, '/app/auth/signin');
    await suite.page.keyboard.press('Tab');
    expect(await focused(codeSection(suite.page).getByLabel('Email'))).toBe(true);
    await suite.page.keyboard.type(email);
    await suite.page.keyboard.press('Enter');
    expect(await shown(codeSection(suite.page).getByRole('status'))).toContain(email);
    const { code } = signInSecrets(await nthMailTo(email));
    await codeSection(suite.page).getByLabel('Code').focus();
    await suite.page.keyboard.type(code);
    await suite.page.keyboard.press('Enter');
    await shown(home());
    await shown(suite.page.getByText(email, { exact: true }));
  });

  test('a wrong code is shown as the spec’s refusal and signs nobody in', async () => {
    const email = freshEmail('browser-wrong-code');
    await open(suite.page, suite.rde, '/app/auth/signin');
    await codeSection(suite.page).getByLabel('Email').fill(email);
    await codeSection(suite.page).getByRole('button', { name: 'Email me a code' }).click();
    const { code } = signInSecrets(await nthMailTo(email));
    await codeSection(suite.page)
      .getByLabel('Code')
      .fill(code === '000000' ? '111111' : '000000');
    await codeSection(suite.page).getByRole('button', { name: 'Sign in' }).click();
    expect(await shown(codeSection(suite.page).getByRole('alert'))).not.toMatch(/[{}]/);
    expect((await suite.context.cookies()).map((cookie) => cookie.name)).not.toContain('rde_session');
  });

  test('the emailed link signs in after one click; used again, it says so', async () => {
    const email = freshEmail('browser-link');
    await api(suite.rde, 'POST', '/api/v2/auth/magic-link', { key: null, body: { email } });
    const mail = await nthMailTo(email);
    const link = new URL(/(http\S+auth\/verify\?token=\S+)/.exec(mail.text)![1]);
    expect(link.origin).toBe(new URL(suite.rde.baseUrl).origin);
    await suite.page.goto(link.href);
    await checkPage(suite.page, 'verify');
    await suite.page.getByRole('button', { name: 'Continue signing in' }).click();
    await shown(home());
    await shown(suite.page.getByText(email, { exact: true }));

    await suite.page.goto(link.href);
    await suite.page.getByRole('button', { name: 'Continue signing in' }).click();
    await shown(suite.page.getByRole('alert'));
    await shown(suite.page.getByRole('link', { name: 'Ask for a new link' }));
  });

  test('a CLI sign-in: the approval URL opens the sign-in page, and the polling client gets its token', async () => {
    const started = await api(suite.rde, 'POST', '/api/v2/auth/cli/start', { key: null, body: {} });
    const { approval_url: approvalUrl, poll_url: pollUrl } = started.body;
    await suite.page.goto(approvalUrl);
    await shown(suite.page.getByText('Signing in approves the command line'));
    await signInByCode(suite.page, freshEmail('browser-cli'));
    expect(await statusSaying(suite.page, 'The command line is signed in')).toContain('The command line is signed in');
    const poll = await api(suite.rde, 'GET', new URL(pollUrl).pathname, { key: null });
    expect(poll.body).toMatchObject({ status: 'approved', token: expect.stringMatching(/^rde_/) });
  });

  test('a signed-in browser approves a waiting CLI with one click; the polling client gets its token', async () => {
    await open(suite.page, suite.rde, '/app/auth/signin');
    await signInByCode(suite.page, freshEmail('browser-approve'));
    await shown(home());
    const started = await api(suite.rde, 'POST', '/api/v2/auth/cli/start', { key: null, body: {} });
    await suite.page.goto(started.body.approval_url);
    const approval = suite.page.getByRole('region', { name: 'Approve the command line' });
    await shown(approval);
    await checkPage(suite.page, 'cli-approve');
    await approval.getByRole('button', { name: 'Approve' }).click();
    expect(await shown(approval.getByRole('status'))).toContain('The command line is signed in');
    const poll = await api(suite.rde, 'GET', new URL(started.body.poll_url).pathname, { key: null });
    expect(poll.body).toMatchObject({ status: 'approved', token: expect.stringMatching(/^rde_/) });
  });

  test('approving a claim that does not exist shows the API’s refusal', async () => {
    await open(suite.page, suite.rde, '/app/auth/signin');
    await signInByCode(suite.page, freshEmail('browser-approve-unknown'));
    await shown(home());
    await open(suite.page, suite.rde, '/app/auth/signin?cli_token=clm_does_not_exist_0000000000');
    const approval = suite.page.getByRole('region', { name: 'Approve the command line' });
    await approval.getByRole('button', { name: 'Approve' }).click();
    expect(await shown(approval.getByRole('alert'))).not.toMatch(/[{}]/);
    expect(await approval.getByRole('status').count()).toBe(0);
  });

  test('the page an external sign-in of a CLI returns to tells the person to go back to the terminal', async () => {
    await open(suite.page, suite.rde, '/auth/cli/finalize');
    expect(new URL(suite.page.url()).pathname).toBe('/app/auth/cli/finalize');
    expect(await shown(suite.page.getByRole('status'))).toContain('The command line is signed in');
    await checkPage(suite.page, 'cli-finalize');
  });

  test('every request that leaves loopback is blocked', async () => {
    await expect(suite.page.goto('https://example.com/')).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
  });
});
