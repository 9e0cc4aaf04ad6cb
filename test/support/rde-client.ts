import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildClientArchive, CLIENT_SOURCE_DIR, type ClientArchive } from '@rde/client';

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The client built from a copy of its sources with another __version__: an older release. */
export async function clientAtVersion(version: string): Promise<ClientArchive> {
  const copy = await mkdtemp(path.join(os.tmpdir(), 'rde-client-old-'));
  await cp(path.join(CLIENT_SOURCE_DIR, 'rde_cli'), path.join(copy, 'rde_cli'), { recursive: true });
  const init = path.join(copy, 'rde_cli', '__init__.py');
  await writeFile(init, (await readFile(init, 'utf8')).replace(/__version__ = ".*"/, `__version__ = "${version}"`));
  return buildClientArchive(copy);
}

export interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs an installed client as a user's shell would: its HOME, its PATH, no terminal. */
export function runClient(
  home: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Outcome> {
  return new Promise((resolve) =>
    execFile(command, args, { env: userEnv(home, env) }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

export function spawnClient(home: string, command: string, args: string[]): ChildProcess {
  return spawn(command, args, { env: userEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
}

function userEnv(home: string, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    HOME: home,
    PATH: `${path.join(home, '.local', 'bin')}:/usr/local/bin:/usr/bin:/bin`,
    LANG: 'C.UTF-8',
    ...env,
  };
}
