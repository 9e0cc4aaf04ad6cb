import { api } from '../e2e/api';
import { withCookie } from '../e2e/sign-in';
import { QUICK_RUNS_ENV, enrichmentSupport } from '../spec/enrichment-support';
import { dashboardSuite } from './browser';
import { checkPage, downloaded, sessionOf, shown, signedIn } from './pages';

jest.setTimeout(180_000);

describe('Dashboard: datasets and enrichment runs in a real browser (all-in-one)', () => {
  const suite = dashboardSuite(QUICK_RUNS_ENV);
  const { peopleRows, settled, charges } = enrichmentSupport(() => suite.rde);
  const region = (name: string) => suite.page.getByRole('region', { name });

  /** A key of the signed-in workspace, for the API reads a test makes beside the page. */
  async function workspaceKey(): Promise<string> {
    const minted = await api(suite.rde, 'POST', '/api/v2/keys', {
      ...withCookie(await sessionOf(suite.context)),
      body: { name: 'test reads' },
    });
    return minted.body.key;
  }

  async function dataset(key: string, name: string, rows: object[]): Promise<string> {
    const created = await api(suite.rde, 'POST', '/api/v2/datasets', { key, body: { name, rows } });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  test('the list opens a dataset; its rows page by page; its CSV downloads as the API serves it', async () => {
    await signedIn(suite, '/app/datasets');
    await shown(suite.page.getByText(/^No datasets yet/));
    const key = await workspaceKey();
    const id = await dataset(key, 'berlin leads', await peopleRows(7000, 30));
    await suite.page.reload();
    await suite.page.getByRole('link', { name: 'berlin leads' }).click();
    await suite.page.waitForURL(`**/app/datasets/${id}`);
    const rows = region('Rows');
    await shown(rows.getByText('1–25 of 30'));
    expect(await rows.getByRole('row').count()).toBe(26);
    await checkPage(suite.page, 'dataset');
    await rows.getByRole('button', { name: 'Next' }).click();
    await shown(rows.getByText('26–30 of 30'));
    expect(await rows.getByRole('row').count()).toBe(6);

    const csv = await downloaded(suite.page, suite.page.getByRole('link', { name: 'Download CSV' }));
    expect(csv).toBe((await api(suite.rde, 'GET', `/api/v2/datasets/${id}/csv`, { key })).text);
    await suite.page.getByRole('link', { name: 'All datasets' }).click();
    await shown(suite.page.getByRole('rowheader', { name: 'berlin leads' }));
    await checkPage(suite.page, 'datasets');
  });

  test('an enrichment run: priced, started, followed to 100 %; the balance goes down by exactly its charge', async () => {
    await signedIn(suite, '/app/datasets');
    const key = await workspaceKey();
    const rows = await peopleRows(7100, 12);
    const id = await dataset(key, 'to enrich', rows);
    const before = (await settled(key)).balance;
    const estimate = await api(suite.rde, 'POST', '/enrich/run', {
      key,
      body: { input: id, steps: ['email_enrichment'], estimate: true },
    });

    await suite.page.goto(`${suite.rde.baseUrl}/app/datasets/${id}`);
    const enrich = region('Enrich this dataset');
    await enrich.getByLabel('Find').selectOption('email_enrichment');
    await enrich.getByRole('button', { name: 'Estimate the cost' }).click();
    expect(await shown(enrich.getByRole('status'))).toBe(
      `At most ${estimate.body._meta.would_charge_credits} credits: only the rows found are charged.`,
    );
    await enrich.getByRole('button', { name: 'Start the run' }).click();
    await enrich.getByText('Run completed: 12 of 12 rows (100 %).').waitFor({ timeout: 120_000 });
    const bar = enrich.getByRole('progressbar', { name: 'Run progress' });
    expect(await bar.getAttribute('value')).toBe(await bar.getAttribute('max'));
    const charge = Number((await shown(enrich.getByTestId('run-charge'))).replace(/ credits$/, ''));
    expect(charge).toBeGreaterThan(0);
    await checkPage(suite.page, 'enrichment-run');

    const after = (await settled(key, 60_000)).balance;
    expect(before - after).toBe(charge);
    const ledger = await charges(key);
    expect(ledger.reduce((sum, entry) => sum + entry.amount, 0)).toBe(charge);

    await enrich.getByRole('link', { name: 'Open the enriched dataset' }).click();
    await shown(region('Rows').getByRole('columnheader', { name: 'steps' }));
    expect(await region('Rows').getByRole('row').count()).toBe(13);
  });

  test('a dataset that is not there is explained in a sentence', async () => {
    await signedIn(suite, '/app/datasets/ds_not_a_dataset_000000');
    expect(await shown(suite.page.getByRole('alert'))).not.toMatch(/[{}]/);
    await shown(suite.page.getByRole('link', { name: 'All datasets' }));
  });
});
