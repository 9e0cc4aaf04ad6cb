import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, utimes, writeFile, chmod } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PublicSkillCatalog } from '../../services/catalog/src/app/skills/public-catalog';
import { PublicSkillPackagesRepository } from '../../services/catalog/src/store/public-skill-packages';
import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';

jest.setTimeout(180_000);

const run = promisify(execFile);
const SKILLS = path.resolve(__dirname, '../../services/catalog/skills');
const SENTINEL = 'SENTINEL-outside-the-skill-packages';

/** Every file of a package folder, relative path → text. */
async function filesOf(directory: string, prefix = ''): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(path.join(directory, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(files, await filesOf(directory, relative));
    else if (entry.isFile()) files[relative] = await readFile(path.join(directory, relative), 'utf8');
  }
  return files;
}

/** A GET whose path is sent exactly as written: no client-side URL normalisation of `..` or `%2e`. */
function rawGet(rde: RunningRde, rawPath: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(rde.baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, path: rawPath, method: 'GET' }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

async function download(rde: RunningRde, route: string): Promise<Buffer> {
  const response = await fetch(`${rde.baseUrl}${route}`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

const digestOf = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/**
 * Bootstrap and distribution, the skills half: RDE's own skill packages served for discovery. RDE
 * reads a copy of the repository's packages with a sentinel file beside them and an outward
 * symbolic link inside one, so a traversal that escaped would show the sentinel.
 */
describe(`spec: skill discovery (${mode})`, () => {
  let rde: RunningRde;
  let work: string;
  let packagesDir: string;
  let names: string[];

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'rde-skills-'));
    packagesDir = path.join(work, 'packages');
    await cp(SKILLS, packagesDir, { recursive: true });
    await writeFile(path.join(work, 'sentinel.txt'), SENTINEL);
    await writeFile(path.join(packagesDir, 'SENTINEL.md'), SENTINEL);
    await symlink(path.join(work, 'sentinel.txt'), path.join(packagesDir, 'rde', 'references', 'outside.md'));
    await symlink(work, path.join(packagesDir, 'rde', 'up'));
    names = (await readdir(SKILLS)).sort();
    rde = await startRde({ RDE_CATALOG_SKILLS_DIR: packagesDir });
  });

  afterAll(async () => {
    await rde?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  test('every package has SKILL.md whose frontmatter name is its folder and whose description fits 1024 characters', async () => {
    expect(names).toEqual(
      expect.arrayContaining(['rde', 'rde-people-search', 'rde-enrichment', 'rde-qualify', 'rde-workflows']),
    );
    for (const name of names) {
      const skillMd = await readFile(path.join(SKILLS, name, 'SKILL.md'), 'utf8');
      const frontmatter = /^---\n([\s\S]*?)\n---\n/.exec(skillMd)![1];
      expect(frontmatter).toMatch(new RegExp(`^name: ${name}$`, 'm'));
      const description = /^description: (.+)$/m.exec(frontmatter)![1];
      expect(description.length).toBeLessThanOrEqual(1024);
    }
  });

  test('every example in the skills runs as written against RDE and answers 2xx', async () => {
    let examples = 0;
    for (const name of names) {
      for (const [file, text] of Object.entries(await filesOf(path.join(SKILLS, name)))) {
        for (const [, block] of text.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
          examples++;
          const { stdout, stderr } = await run('bash', ['-euo', 'pipefail', '-c', block], {
            env: { ...process.env, RDE_URL: rde.baseUrl, RDE_KEY: rde.ownerKey },
            timeout: 60_000,
          }).catch((error) => ({ stdout: '', stderr: `${name}/${file} failed: ${error.stderr}\n${block}` }));
          expect(stderr).toBe('');
          expect(stdout.trim().length).toBeGreaterThan(0);
        }
      }
    }
    expect(examples).toBeGreaterThanOrEqual(10);
  });

  test('/SKILL.md is the setup skill as markdown with an ETag; If-None-Match with it answers 304', async () => {
    const response = await api(rde, 'GET', '/SKILL.md', { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(response.text).toBe(await readFile(path.join(SKILLS, 'rde', 'SKILL.md'), 'utf8'));
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await api(rde, 'GET', '/SKILL.md', { key: null, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const stale = await api(rde, 'GET', '/SKILL.md', { key: null, headers: { 'if-none-match': '"0000"' } });
    expect(stale.status).toBe(200);
  });

  test('the index declares discovery 0.2.0 and lists every package with its archive, digest and files; both paths agree', async () => {
    const index = await api(rde, 'GET', '/.well-known/skills/index.json', { key: null });
    expect(index.status).toBe(200);
    expect(index.body.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(index.body.skills.map((skill: { name: string }) => skill.name)).toEqual(names);
    for (const skill of index.body.skills) {
      const files = await filesOf(path.join(SKILLS, skill.name));
      expect(skill).toMatchObject({
        type: 'archive',
        url: `/.well-known/skills/archives/${skill.name}.tar.gz`,
        base_url: `/.well-known/skills/${skill.name}/`,
        entrypoint: 'SKILL.md',
        files: Object.keys(files).sort(),
      });
      expect(skill.digest).toBe(digestOf(await download(rde, skill.url)));
      expect(skill.version).toBe(skill.digest.slice('sha256:'.length));
      expect(skill.documents).toEqual(
        Object.keys(files)
          .filter((file) => file !== 'SKILL.md')
          .sort(),
      );
    }
    const finalDraft = await api(rde, 'GET', '/.well-known/agent-skills/index.json', { key: null });
    expect(finalDraft.body).toEqual(index.body);
  });

  test('/api/v2/versions gives the skills catalog hash, equal to the index version, and the latest CLI release', async () => {
    const versions = await api(rde, 'GET', '/api/v2/versions', { key: null });
    const index = await api(rde, 'GET', '/.well-known/skills/index.json', { key: null });
    expect(versions.status).toBe(200);
    const releases = await api(rde, 'GET', '/api/v2/cli/releases', { key: null });
    const latest = releases.body.releases.find(
      (release: { version: string }) => release.version === releases.body.latest,
    );
    expect(versions.body).toEqual({
      cli: { version: latest.version, sha256: latest.sha256, min_cli_version: releases.body.min_cli_version },
      skills: { sha256: index.body.version, count: names.length },
    });
    expect(index.body.version).toMatch(/^[0-9a-f]{64}$/);
  });

  test('every file route answers the file as text with an ETag and 304 on a match', async () => {
    for (const name of names) {
      for (const [file, text] of Object.entries(await filesOf(path.join(SKILLS, name)))) {
        const response = await api(rde, 'GET', `/.well-known/skills/${name}/${file}`, { key: null });
        expect({ file, status: response.status, text: response.text }).toEqual({ file, status: 200, text });
        const etag = response.headers.get('etag')!;
        const again = await api(rde, 'GET', `/.well-known/skills/${name}/${file}`, {
          key: null,
          headers: { 'if-none-match': `W/${etag}` },
        });
        expect(again.status).toBe(304);
      }
    }
  });

  test('system tar unpacks each archive with SKILL.md at its root and exactly the package files; the bundle holds every package', async () => {
    for (const name of [...names, '']) {
      const target = await mkdtemp(path.join(work, 'unpacked-'));
      const route = name ? `/.well-known/skills/archives/${name}.tar.gz` : '/api/v2/skills/bundle';
      await writeFile(path.join(target, 'archive.tar.gz'), await download(rde, route));
      await mkdir(path.join(target, 'out'));
      await run('tar', ['-xzf', path.join(target, 'archive.tar.gz'), '-C', path.join(target, 'out')]);
      const out = path.join(target, 'out');
      // A package's archive has no wrapper folder; the bundle has one folder per package.
      if (name) expect(await filesOf(out)).toEqual(await filesOf(path.join(SKILLS, name)));
      else {
        expect((await readdir(out)).sort()).toEqual(names);
        for (const each of names)
          expect(await filesOf(path.join(out, each))).toEqual(await filesOf(path.join(SKILLS, each)));
      }
    }
  });

  test('archives built twice, from copies in different directories with other mtimes and modes, are identical bytes', async () => {
    const copies = [path.join(work, 'copy-a'), path.join(work, 'copy-b', 'deeper')];
    await cp(SKILLS, copies[0], { recursive: true });
    await cp(SKILLS, copies[1], { recursive: true });
    await utimes(path.join(copies[1], 'rde', 'SKILL.md'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    await chmod(path.join(copies[1], 'rde', 'SKILL.md'), 0o600);
    const [a, b] = await Promise.all(
      copies.map(async (copy) => PublicSkillCatalog.build(await PublicSkillPackagesRepository.load(copy))),
    );
    const served = (await api(rde, 'GET', '/.well-known/skills/index.json', { key: null })).body;
    for (const name of [...names, '']) {
      expect(a.archive(name).archive.equals(b.archive(name).archive)).toBe(true);
      expect(a.archive(name).digest).toBe(b.archive(name).digest);
    }
    expect(a.list().map((skill) => skill.digest)).toEqual(
      served.skills.map((skill: { digest: string }) => skill.digest),
    );
    expect(a.sha256).toBe(served.version);
    expect(a.archive('').archive.subarray(0, 10).toString('hex')).toBe('1f8b0800000000000203');
  });

  test('an unknown package is 404 for its archive and its files', async () => {
    expect((await api(rde, 'GET', '/.well-known/skills/archives/no-such-skill.tar.gz', { key: null })).status).toBe(
      404,
    );
    expect((await api(rde, 'GET', '/.well-known/skills/no-such-skill/SKILL.md', { key: null })).status).toBe(404);
    expect((await api(rde, 'GET', '/.well-known/skills/rde/no-such-file.md', { key: null })).status).toBe(404);
  });

  test.each([
    '/.well-known/skills/rde/../SENTINEL.md',
    '/.well-known/skills/rde/..%2fSENTINEL.md',
    '/.well-known/skills/rde/..%2FSENTINEL.md',
    '/.well-known/skills/rde/%2e%2e/SENTINEL.md',
    '/.well-known/skills/rde/%2e%2e%2fSENTINEL.md',
    '/.well-known/skills/rde/.%2e/SENTINEL.md',
    '/.well-known/skills/rde/..%5cSENTINEL.md',
    '/.well-known/skills/rde/..\\SENTINEL.md',
    '/.well-known/skills/rde/%252e%252e%252fSENTINEL.md',
    '/.well-known/skills/rde/references/../../SENTINEL.md',
    '/.well-known/skills/rde/references%2f..%2f..%2fSENTINEL.md',
    '/.well-known/skills/rde/references/../../../sentinel.txt',
    '/.well-known/skills/rde//etc/passwd',
    '/.well-known/skills/rde/%2fetc%2fpasswd',
    '/.well-known/skills/rde/..%00/SENTINEL.md',
    '/.well-known/skills/rde/SKILL.md%00.txt',
    '/.well-known/skills/rde/..%c0%afSENTINEL.md',
    '/.well-known/skills/rde/..%e0%80%afSENTINEL.md',
    '/.well-known/skills/rde/....//SENTINEL.md',
    '/.well-known/skills/rde/./../SENTINEL.md',
    '/.well-known/skills/rde/references/outside.md',
    '/.well-known/skills/rde/up/sentinel.txt',
    '/.well-known/skills/rde/C:%5cwindows%5cwin.ini',
    '/.well-known/skills/..%2f/SENTINEL.md',
    '/.well-known/skills/%2e%2e/sentinel.txt',
    '/.well-known/skills/SENTINEL.md/x',
    '/.well-known/skills/archives/..%2fSENTINEL.tar.gz',
  ])('%s answers 404 and shows nothing from outside the package', async (rawPath) => {
    const response = await rawGet(rde, rawPath);
    expect(response.status).toBe(404);
    expect(response.body).not.toContain(SENTINEL);
  });

  test('the skills CLI from npm installs every package from RDE, verifying the index digests', async () => {
    const home = await mkdtemp(path.join(work, 'cli-'));
    const node22 = (await run(path.resolve(__dirname, '../support/node22.sh'), [])).stdout.trim();
    const cli = path.resolve(__dirname, '../node_modules/skills/bin/cli.mjs');
    await run(node22, [cli, 'add', rde.baseUrl, '--skill', '*', '--agent', 'claude-code', '--yes', '--copy'], {
      cwd: home,
      env: { ...process.env, HOME: home, DO_NOT_TRACK: '1', DISABLE_TELEMETRY: '1', CI: '1' },
      timeout: 120_000,
    });
    for (const name of names) {
      expect(await filesOf(path.join(home, '.claude', 'skills', name))).toEqual(await filesOf(path.join(SKILLS, name)));
    }
  });
});
