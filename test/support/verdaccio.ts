import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort, waitUntil } from '../e2e/harness';

const VERDACCIO = require.resolve('verdaccio/bin/verdaccio');

/** A real npm registry (verdaccio) on loopback with its own storage; `requests` are the paths it served. */
export interface Registry {
  readonly url: string;
  readonly requests: string[];
  /** Publishes a package of `files` (package.json is made from name and version). */
  publish(name: string, version: string, files: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

export async function startRegistry(): Promise<Registry> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'rde-verdaccio-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  await writeFile(
    path.join(folder, 'config.yaml'),
    [
      `storage: ${path.join(folder, 'storage')}`,
      `auth: { htpasswd: { file: ${path.join(folder, 'htpasswd')}, max_users: 10 } }`,
      'uplinks: {}',
      "packages: { '**': { access: $all, publish: $authenticated } }",
      'log: { type: stdout, format: json, level: http }',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    process.execPath,
    [VERDACCIO, '--config', 'config.yaml', '--listen', `127.0.0.1:${port}`],
    {
      cwd: folder,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const requests: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const url = /"url":"([^"]+)"/.exec(line)?.[1];
    if (url) requests.push(url);
  });
  await waitUntil(async () => (await fetch(`${url}/-/ping`)).ok, 60_000, 200);

  const user = await fetch(`${url}/-/user/org.couchdb.user:publisher`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'publisher', password: 'publisher-password-1' }),
  });
  const { token } = (await user.json()) as { token: string };
  const npmrc = path.join(folder, 'npmrc');
  await writeFile(npmrc, `registry=${url}/\n//127.0.0.1:${port}/:_authToken=${token}\n`);

  return {
    url,
    requests,
    async publish(name, version, files) {
      const source = await mkdtemp(path.join(folder, 'package-'));
      await writeFile(path.join(source, 'package.json'), JSON.stringify({ name, version, license: 'MIT' }));
      for (const [file, text] of Object.entries(files)) await writeFile(path.join(source, file), text);
      await npm(['publish', '--userconfig', npmrc, '--access', 'public'], source);
    },
    async close() {
      child.kill('SIGTERM');
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** Runs npm in a folder; rejects with its output when it fails. */
export function npm(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'npm',
      args,
      { cwd, env: { ...process.env, npm_config_update_notifier: 'false' } },
      (error, stdout, stderr) =>
        error ? reject(new Error(`npm ${args.join(' ')} failed: ${stdout}${stderr}`)) : resolve(stdout),
    ),
  );
}
