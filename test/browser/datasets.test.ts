import { api } from '../e2e/api';
import { newTeam } from '../e2e/teams';
import { definition } from '../spec/workflows-support';
import { withCookie } from '../e2e/sign-in';
import { QUICK_RUNS_ENV, enrichmentSupport } from '../spec/enrichment-support';
import { dashboardSuite } from './browser';
import { checkPage, downloaded, open, sessionOf, shown, signedIn } from './pages';

jest.setTimeout(180_000);

describe('Dashboard: datasets, enrichment runs, workflows and skills in a real browser (all-in-one)', () => {
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

  test('a workflow: its versions’ definitions, disabled and enabled again', async () => {
    const team = await newTeam(suite.rde, 'browser-workflows');
    const apply = (body: object) => api(suite.rde, 'POST', '/api/v2/workflows/apply', { key: team.owner, body });
    const { id } = (await apply(definition('nightly-leads'))).body;
    expect((await apply(definition('nightly-leads', { description: 'the second version' }))).status).toBe(200);

    await signedIn(suite, '/app/workflows', team.ownerEmail);
    await suite.page.getByRole('link', { name: 'nightly-leads' }).click();
    const definitionText = suite.page.getByTestId('definition');
    expect(await shown(definitionText)).toContain('the second version');
    await suite.page.getByLabel('Version').selectOption('1');
    await definitionText.getByText(/find engineers, their emails/).waitFor();
    await checkPage(suite.page, 'workflow');

    const status = region('Status');
    await status.getByRole('button', { name: 'Disable' }).click();
    await status.getByText(/^Disabled/).waitFor();
    const read = async () => (await api(suite.rde, 'GET', `/api/v2/workflows/${id}`, { key: team.owner })).body;
    expect((await read()).status).toBe('disabled');
    await status.getByRole('button', { name: 'Enable' }).click();
    await status.getByText(/^Enabled/).waitFor();
    expect((await read()).status).toBe('enabled');
  });

  test('a member’s team skill waits for the owner, who approves it on its page', async () => {
    const team = await newTeam(suite.rde, 'browser-skills');
    const name = `outreach-${Date.now().toString(36)}`;
    const files = { 'SKILL.md': `---\nname: ${name}\ndescription: How the team writes outreach.\n---\n\n# ${name}\n` };
    const created = await api(suite.rde, 'POST', '/api/v2/workspace/skills', {
      key: team.member,
      body: { scope: 'org', files },
    });
    expect(created.body.status).toBe('pending');

    await signedIn(suite, '/app/skills', team.ownerEmail);
    expect(await shown(suite.page.getByRole('row', { name: new RegExp(name) }))).toContain('version 1');
    await checkPage(suite.page, 'skills');
    await suite.page.getByRole('link', { name }).click();
    await region('Version 1 waits for the owner').getByRole('button', { name: 'Approve version 1' }).click();
    await region('Versions')
      .getByRole('row', { name: /1 live/ })
      .waitFor();
    const skill = await api(suite.rde, 'GET', `/api/v2/workspace/skills/${created.body.skill_id}`, { key: team.owner });
    expect(skill.body).toMatchObject({ live_version: 1, pending_version: null });
  });

  test('a workflow or a skill that is not there is explained in a sentence', async () => {
    await signedIn(suite, '/app/workflows/wf_not_a_workflow_00000000');
    expect(await shown(suite.page.getByRole('alert'))).not.toMatch(/[{}]/);
    await open(suite.page, suite.rde, '/app/skills/skl_not_a_skill_00000000');
    expect(await shown(suite.page.getByRole('alert'))).not.toMatch(/[{}]/);
  });
});
