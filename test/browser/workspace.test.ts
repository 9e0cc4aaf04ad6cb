import { api, untilSettled } from '../e2e/api';
import { freshEmail, withCookie } from '../e2e/sign-in';
import { dashboardSuite } from './browser';
import {
  checkPage,
  clipboardText,
  downloaded,
  open,
  sessionOf,
  shown,
  signedIn as signedInAs,
  signInByCode,
} from './pages';

jest.setTimeout(120_000);

describe('Dashboard: signed-in workspace pages in a real browser (all-in-one)', () => {
  const suite = dashboardSuite();

  const signedIn = (pathAndQuery: string) => signedInAs(suite, pathAndQuery);

  const createSection = () => suite.page.getByRole('region', { name: 'Create a key' });
  const keyList = () => suite.page.getByRole('region', { name: 'Keys of this workspace' });

  const session = () => sessionOf(suite.context);

  test('home: the balance and its buckets, a charge showing in balance, chart and ledger, a low-balance warning', async () => {
    await signedIn('/app/');
    expect(await shown(suite.page.getByTestId('balance'))).toBe('100 credits');
    expect(await suite.page.getByRole('alert').count()).toBe(0);

    const minted = await api(suite.rde, 'POST', '/api/v2/keys', {
      ...withCookie(await session()),
      body: { name: 'home' },
    });
    const search = await api(suite.rde, 'POST', '/search/people_search', {
      key: minted.body.key,
      body: { query: { titles: ['Software Engineer'], locations: ['Berlin'] }, limit: 3 },
    });
    expect(search.status).toBe(200);
    const charged: number = search.body._meta.charged;
    expect(charged).toBeGreaterThan(0);
    await untilSettled(suite.rde, minted.body.key);

    await suite.page.reload();
    expect(await shown(suite.page.getByTestId('balance'))).toBe(`${100 - charged} credits`);
    expect(await shown(suite.page.getByRole('alert'))).toBe(`Low balance: ${100 - charged} credits available.`);
    const chart = suite.page.getByRole('img', { name: /Credits spent per day/ });
    expect(await chart.getAttribute('aria-label')).toContain(`${charged} in all`);
    expect(await chart.locator('canvas').count()).toBe(1);
    const ledger = suite.page.getByRole('region', { name: 'Latest ledger entries' });
    expect(await shown(ledger.getByRole('listitem').first())).toContain(`-${charged}`);
    await checkPage(suite.page, 'home');

    const csv = await downloaded(suite.page, ledger.getByRole('link', { name: 'Download the whole ledger (CSV)' }));
    const fromApi = await api(suite.rde, 'GET', '/api/v2/billing/ledger.csv', withCookie(await session()));
    expect(csv).toBe(fromApi.text);
    expect(csv).toContain(`-${charged}`);
  });

  test('a page that needs a session links to sign-in, which returns to it', async () => {
    await open(suite.page, suite.rde, '/app/keys');
    await suite.page.getByRole('link', { name: 'Sign in to see this page' }).click();
    await signInByCode(suite.page, freshEmail('browser-return'));
    await suite.page.waitForURL('**/app/keys');
    await shown(suite.page.getByRole('heading', { level: 1, name: 'API keys' }));
  });

  test('create a key: its plaintext is shown once, copies, and works; the list keeps only its prefix', async () => {
    await signedIn('/app/keys');
    await createSection().getByLabel('Name').fill('ci runner');
    await createSection().getByRole('button', { name: 'Create key' }).click();
    const plaintext = await shown(createSection().getByLabel('New key'));
    expect(plaintext).toMatch(/^rde_live_/);
    await createSection().getByRole('button', { name: 'Copy key' }).click();
    expect(await shown(createSection().getByRole('status'))).toContain('Copied');
    expect(await clipboardText(suite.page)).toBe(plaintext);
    await shown(keyList().getByRole('rowheader', { name: 'ci runner' }));
    await checkPage(suite.page, 'keys');

    expect((await api(suite.rde, 'GET', '/api/v2/me', { key: plaintext })).status).toBe(200);
    await suite.page.reload();
    await shown(keyList().getByRole('rowheader', { name: 'ci runner' }));
    expect(await suite.page.content()).not.toContain(plaintext);
    expect(await shown(keyList())).toContain(plaintext.slice(0, 13));
  });

  test('revoke a key: it leaves the list and the API refuses it', async () => {
    await signedIn('/app/keys');
    await createSection().getByLabel('Name').fill('short-lived');
    await createSection().getByRole('button', { name: 'Create key' }).click();
    const plaintext = await shown(createSection().getByLabel('New key'));
    await keyList().getByRole('button', { name: 'Revoke short-lived' }).click();
    await keyList().getByRole('rowheader', { name: 'short-lived' }).waitFor({ state: 'detached' });
    expect((await api(suite.rde, 'GET', '/api/v2/me', { key: plaintext })).status).toBe(401);
  });

  test('a key name the API refuses is explained in a sentence, and no key is made', async () => {
    await signedIn('/app/keys');
    await shown(keyList().getByRole('table'));
    const before = await keyList().getByRole('row').count();
    await createSection().getByLabel('Name').fill('x'.repeat(300));
    await createSection().getByRole('button', { name: 'Create key' }).click();
    expect(await shown(createSection().getByRole('alert'))).not.toMatch(/[{}]/);
    expect(await createSection().getByLabel('New key').count()).toBe(0);
    expect(await keyList().getByRole('row').count()).toBe(before);
  });
});
