import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildClientArchive } from '@rde/client';
import { spawnClient } from '../support/rde-client';

/** `rde login --invite <code> --no-browser` run as a user would, in a fresh HOME. */
export interface InvitedLogin {
  /** The sign-in link the client printed for the person to open. */
  link: string;
  /** The client's exit code once the sign-in was approved. */
  exited: Promise<number | null>;
  /** The credentials the client saved. */
  saved: () => Promise<{ token: string; workspace_id: string }>;
}

export async function invitedLogin(baseUrl: string, inviteCode: string): Promise<InvitedLogin> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'rde-browser-cli-'));
  const client = path.join(home, 'rde.pyz');
  await writeFile(client, (await buildClientArchive()).bytes);
  const login = spawnClient(home, 'python3', [
    client,
    '--url',
    baseUrl,
    'login',
    '--invite',
    inviteCode,
    '--no-browser',
  ]);
  return {
    link: await printedLink(login),
    exited: new Promise((resolve) => login.on('exit', resolve)),
    saved: async () => JSON.parse(await readFile(path.join(home, '.config', 'rde', 'credentials.json'), 'utf8')),
  };
}

function printedLink(login: ChildProcess): Promise<string> {
  let printed = '';
  return new Promise((resolve) =>
    login.stderr!.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const found = /(http\S+\/auth\/signin\?\S+)/.exec(printed);
      if (found) resolve(found[1]!);
    }),
  );
}
