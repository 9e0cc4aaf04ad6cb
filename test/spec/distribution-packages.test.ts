import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { api, type ApiResponse } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { npm, startRegistry, type Registry } from '../support/verdaccio';
import { followRecipe, type RecipeRequest } from './recipes-support';

jest.setTimeout(180_000);

const SERVED = '@rde-test/greeting';
const NOT_SERVED = 'rde-test-private';
/** A scoped name as npm writes it in a URL: the scope's slash encoded. */
const ENCODED = '@rde-test%2fgreeting';

/**
 * Bootstrap and distribution: the npm proxy against a real registry (verdaccio on loopback), the
 * onboarding recipes (each request executed in order, the webhook workflow's run read to its end), the O*NET reference tables with conditional requests,
 * and the brand assets' allowlist.
 */
describe(`Distribution: packages and onboarding (${mode})`, () => {
  let rde: RunningRde;
  let registry: Registry;
  const folders: string[] = [];

  beforeAll(async () => {
    registry = await startRegistry();
    await registry.publish(SERVED, '1.0.0', { 'index.js': "module.exports = () => 'hello from 1.0.0';\n" });
    await registry.publish(SERVED, '1.1.0', { 'index.js': "module.exports = () => 'hello from 1.1.0';\n" });
    await registry.publish(NOT_SERVED, '1.0.0', { 'index.js': 'module.exports = 1;\n' });
    rde = await startRde({ RDE_NPM_UPSTREAM_URL: registry.url, RDE_NPM_PACKAGES: `${SERVED},left-pad` });
  });
  afterAll(async () => {
    await rde?.stop();
    await registry?.close();
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });

  const upstream = async (name: string) =>
    (await (await fetch(`${registry.url}/${name.replace('/', '%2f')}`)).json()) as {
      'dist-tags': Record<string, string>;
      versions: Record<string, { dist: { tarball: string; shasum: string; integrity: string } }>;
    };

  test('the packument: dist.tarball points at this host; shasum, integrity and dist-tags are the registry’s', async () => {
    const original = await upstream(SERVED);
    const proxied = await api(rde, 'GET', `/api/v2/npm/${encodeURIComponent(SERVED)}`, { key: null });
    expect(proxied.status).toBe(200);
    expect(proxied.body['dist-tags']).toEqual(original['dist-tags']);
    expect(Object.keys(proxied.body.versions)).toEqual(['1.0.0', '1.1.0']);
    for (const [version, { dist }] of Object.entries(original.versions)) {
      expect(proxied.body.versions[version].dist).toEqual({
        ...dist,
        tarball: `${rde.baseUrl}/api/v2/npm/${ENCODED}/-/greeting-${version}.tgz`,
      });
    }
  });

  test('the tarball is the registry’s byte for byte', async () => {
    const original = await upstream(SERVED);
    const fromRegistry = Buffer.from(await (await fetch(original.versions['1.0.0']!.dist.tarball)).arrayBuffer());
    const response = await fetch(`${rde.baseUrl}/api/v2/npm/${encodeURIComponent(SERVED)}/-/greeting-1.0.0.tgz`);
    expect(response.status).toBe(200);
    const proxied = Buffer.from(await response.arrayBuffer());
    expect(proxied.equals(fromRegistry)).toBe(true);
  });

  test('npm install through the proxy succeeds and npm verifies the integrity it recorded', async () => {
    const project = await mkdtemp(path.join(os.tmpdir(), 'rde-npm-project-'));
    folders.push(project);
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
    );
    await npm(
      [
        'install',
        SERVED,
        '--registry',
        `${rde.baseUrl}/api/v2/npm/`,
        '--cache',
        path.join(project, '.cache'),
        '--no-audit',
        '--no-fund',
      ],
      project,
    );
    const lock = JSON.parse(await readFile(path.join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version: string; integrity: string }>;
    };
    const installed = lock.packages[`node_modules/${SERVED}`]!;
    const original = await upstream(SERVED);
    expect(installed).toMatchObject({
      version: '1.1.0',
      integrity: original.versions['1.1.0']!.dist.integrity,
    });
    const code = await readFile(path.join(project, 'node_modules', SERVED, 'index.js'), 'utf8');
    expect(code).toContain('hello from 1.1.0');
  });

  test('a package outside the allowlist is 404 though the registry has it; malformed names and versions are 422; none reach the registry', async () => {
    const before = registry.requests.length;
    const cases: [string, number][] = [
      [`/api/v2/npm/${NOT_SERVED}`, 404],
      [`/api/v2/npm/${NOT_SERVED}/-/${NOT_SERVED}-1.0.0.tgz`, 404],
      ['/api/v2/npm/Not%20A%20Name', 422],
      ['/api/v2/npm/%40rde-test%2F..%2F..%2Fetc', 422],
      [`/api/v2/npm/${ENCODED}/-/greeting-1.0.tgz`, 422],
      [`/api/v2/npm/${ENCODED}/-/greeting-..%2F1.0.0.tgz`, 422],
      [`/api/v2/npm/${ENCODED}/-/other-1.0.0.tgz`, 404],
    ];
    for (const [route, status] of cases) {
      const response = await api(rde, 'GET', route, { key: null });
      expect({ route, status: response.status }).toEqual({ route, status });
      expect(response.body.detail).toBeDefined();
    }
    expect(registry.requests.slice(before)).toEqual([]);
  });

  test('an allowlisted package the registry does not have is 404', async () => {
    expect((await api(rde, 'GET', '/api/v2/npm/left-pad', { key: null })).status).toBe(404);
  });

  test('recipes: real cards whose every request succeeds as written, in order', async () => {
    const { status, body } = await api(rde, 'GET', '/api/v2/recipes', { key: null });
    expect(status).toBe(200);
    expect(body.recipes.map((recipe: { id: string }) => recipe.id)).toEqual([
      'find-engineers',
      'enrich-a-csv',
      'qualify-a-shortlist',
      'webhook-workflow',
    ]);
    const answered: Record<string, { path: string; answer: ApiResponse }[]> = {};
    for (const recipe of body.recipes as { id: string; requests: RecipeRequest[] }[]) {
      answered[recipe.id] = await followRecipe(rde, recipe.requests);
      for (const { path, answer } of answered[recipe.id]!) {
        expect({ recipe: recipe.id, path, succeeded: answer.status >= 200 && answer.status < 300 }).toEqual({
          recipe: recipe.id,
          path,
          succeeded: true,
        });
      }
    }

    // The webhook card: the workflow is stored, the event (sent with no key) started a live run, and
    // the run read to its end shows each step and the output a user came for.
    const [linted, applied, fired, ended] = answered['webhook-workflow']!.map(({ answer }) => answer);
    expect(linted!.body).toEqual({ valid: true, problems: [] });
    expect(applied).toMatchObject({ status: 201, body: { name: 'new-applicant', trigger: { type: 'webhook' } } });
    expect(fired).toMatchObject({ status: 202, body: { workflow_id: applied!.body.id, status: 'queued' } });
    const run = ended!.body;
    expect(run).toMatchObject({ id: fired!.body.run_id, status: 'succeeded', source: 'webhook', mode: 'live' });
    expect(run.steps.map((step: { id: string; status: string }) => [step.id, step.status])).toEqual([
      ['email', 'succeeded'],
      ['score', 'succeeded'],
    ]);
    expect(run.output).toEqual({
      email: run.steps[0].output.results[0].email,
      score: run.steps[1].output.candidates[0].qualify.score,
    });
    expect(run.output.email).toMatch(/^[^@\s]+@farovia\.com$/);
    expect(run.charged_credits).toBeGreaterThan(0); // the email found is billed; the score is free
    expect(run.charged_credits).toBe(run.steps[0].charged_credits);
  });

  test('reference tables: markdown with the source stated, an ETag, and 304 for a current copy', async () => {
    for (const name of ['titles', 'occupations']) {
      const first = await fetch(`${rde.baseUrl}/api/v2/reference/onet/${name}`);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^text\/markdown/);
      const text = await first.text();
      expect(text).toMatch(/^# /);
      expect(text).toContain('Source: O*NET 29.0 Database');
      expect(text).toContain('15-1252.00');
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);

      const current = await fetch(`${rde.baseUrl}/api/v2/reference/onet/${name}`, {
        headers: { 'if-none-match': `W/${etag}` },
      });
      expect(current.status).toBe(304);
      expect(await current.text()).toBe('');
      expect(current.headers.get('etag')).toBe(etag);
      const stale = await fetch(`${rde.baseUrl}/api/v2/reference/onet/${name}`, {
        headers: { 'if-none-match': '"stale"' },
      });
      expect(stale.status).toBe(200);
      expect(await stale.text()).toBe(text);
    }
    expect((await api(rde, 'GET', '/api/v2/reference/onet/skills', { key: null })).status).toBe(404);
  });

  test('brand assets: allowlisted names are served; any other name, a path included, is 404', async () => {
    const logo = await fetch(`${rde.baseUrl}/brand/logo.svg`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/svg+xml');
    expect(await logo.text()).toMatch(/^<svg /);
    for (const name of ['missing.svg', '..%2Fpackage.json', '..%2F..%2Fsrc%2Findex.ts', '%2Fetc%2Fpasswd']) {
      expect({ name, status: (await api(rde, 'GET', `/brand/${name}`, { key: null })).status }).toEqual({
        name,
        status: 404,
      });
    }
  });
});
