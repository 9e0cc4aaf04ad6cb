import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, utimes, chmod, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildClientArchive, CLIENT_SOURCE_DIR } from '../src';

/** A copy of the client's sources with its own file times and modes, and a stale .pyc beside them. */
async function copyOfSources(seconds: number, mode: number): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'rde-client-src-'));
  await cp(path.join(CLIENT_SOURCE_DIR, 'rde_cli'), path.join(root, 'rde_cli'), {
    recursive: true,
    filter: (source) => !source.includes('__pycache__'),
  });
  for (const name of await readdir(path.join(root, 'rde_cli'))) {
    const file = path.join(root, 'rde_cli', name);
    await utimes(file, seconds, seconds);
    await chmod(file, mode);
  }
  await mkdir(path.join(root, 'rde_cli', '__pycache__'));
  await writeFile(path.join(root, 'rde_cli', '__pycache__', 'main.cpython-39.pyc'), 'stale');
  return root;
}

describe('the client archive', () => {
  const folders: string[] = [];
  afterAll(async () => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

  it('is byte for byte the same when built twice from copies in different directories', async () => {
    folders.push(await copyOfSources(1_000_000_000, 0o644), await copyOfSources(1_700_000_000, 0o600));
    const [first, second] = await Promise.all(folders.map((folder) => buildClientArchive(folder)));
    expect(first!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(second!.sha256).toBe(first!.sha256);
    expect(second!.bytes.equals(first!.bytes)).toBe(true);
  });

  it('runs with python3, holds only sorted .py sources at one time, and starts with the shebang', async () => {
    const archive = await buildClientArchive();
    const folder = await mkdtemp(path.join(os.tmpdir(), 'rde-client-pyz-'));
    folders.push(folder);
    const file = path.join(folder, 'rde.pyz');
    await writeFile(file, archive.bytes);
    expect(archive.bytes.subarray(0, 23).toString()).toBe('#!/usr/bin/env python3\n');
    expect(execFileSync('python3', [file, '--version'], { encoding: 'utf8' }).trim()).toBe(`rde ${archive.version}`);
    const listing = JSON.parse(
      execFileSync(
        'python3',
        [
          '-c',
          'import json,sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); print(json.dumps([[i.filename, list(i.date_time)] for i in z.infolist()]))',
          file,
        ],
        { encoding: 'utf8' },
      ),
    ) as [string, number[]][];
    const names = listing.map(([name]) => name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('__main__.py');
    expect(names.every((name) => name.endsWith('.py'))).toBe(true);
    expect(new Set(listing.map(([, time]) => time.join('-')))).toEqual(new Set(['1980-1-1-0-0-0']));
  });
});
