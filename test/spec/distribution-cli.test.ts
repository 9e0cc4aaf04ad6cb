import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildClientArchive, type ClientArchive } from '@rde/client';
import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { freshEmail, signIn, withCookie } from '../e2e/sign-in';
import { clientAtVersion, runClient, sha256, spawnClient } from '../support/rde-client';
import { startStaticServer, type StaticServer } from '../support/static-server';

jest.setTimeout(180_000);

/**
 * Bootstrap and distribution: the client's releases (immutable, version-addressable, older ones
 * from a release store checked against their recorded hash), the install script run by `sh` in a
 * fresh HOME, signing in and a first call with the installed client, and self-update.
 */
describe(`Distribution: the rde client (${mode})`, () => {
  let rde: RunningRde;
  let store: StaticServer;
  let latest: ClientArchive;
  let older: ClientArchive;
  let tampered: ClientArchive;
  const folders: string[] = [];
  const folder = async (name: string) => {
    const created = await mkdtemp(path.join(os.tmpdir(), `rde-${name}-`));
    folders.push(created);
    return created;
  };

  beforeAll(async () => {
    [latest, older, tampered] = await Promise.all([
      buildClientArchive(),
      clientAtVersion('0.0.9'),
      clientAtVersion('0.0.8'),
    ]);
    // The store holds 0.0.9 as released and, for 0.0.8, bytes that are not the ones released.
    store = await startStaticServer(
      new Map([
        ['/v0.0.9/rde.pyz', older.bytes],
        ['/v0.0.8/rde.pyz', Buffer.concat([tampered.bytes, Buffer.from('#')])],
      ]),
    );
    const record = path.join(await folder('record'), 'releases.json');
    await writeFile(
      record,
      JSON.stringify([
        { version: '0.0.8', sha256: tampered.sha256 },
        { version: '0.0.9', sha256: older.sha256 },
      ]),
    );
    rde = await startRde({
      RDE_CLI_RELEASES_FILE: record,
      RDE_CLI_RELEASE_STORE_URL: store.url,
      RDE_CLI_MIN_VERSION: '0.0.9',
    });
  });
  afterAll(async () => {
    await rde?.stop();
    await store?.close();
    await Promise.all(folders.map((created) => rm(created, { recursive: true, force: true })));
  });

  const download = async (route: string) => {
    const response = await fetch(`${rde.baseUrl}${route}`);
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      bytes: Buffer.from(await response.arrayBuffer()),
    };
  };

  test('the release list: latest, min_cli_version, every release newest first with its hash and this host’s URL', async () => {
    const { status, body } = await api(rde, 'GET', '/api/v2/cli/releases', { key: null });
    expect(status).toBe(200);
    const url = (version: string) => `${rde.baseUrl}/cli/v${version}/rde.pyz`;
    expect(body).toEqual({
      latest: latest.version,
      min_cli_version: '0.0.9',
      releases: [
        { version: latest.version, sha256: latest.sha256, download_url: url(latest.version) },
        { version: '0.0.9', sha256: older.sha256, download_url: url('0.0.9') },
        { version: '0.0.8', sha256: tampered.sha256, download_url: url('0.0.8') },
      ],
    });
    const target = await api(rde, 'GET', '/cli/version', { key: null });
    expect(target.body).toEqual({ ...body.releases[0], min_cli_version: '0.0.9' });
  });

  test('the latest is served directly, at its own path and its version’s, with the listed hash', async () => {
    const before = store.requested.length;
    for (const route of ['/cli/rde.pyz', `/cli/v${latest.version}/rde.pyz`]) {
      const served = await download(route);
      expect(served.status).toBe(200);
      expect(served.type).toBe('application/octet-stream');
      expect(sha256(served.bytes)).toBe(latest.sha256);
    }
    expect(store.requested.length).toBe(before);
  });

  test('an older release is streamed from the release store, byte for byte as released', async () => {
    const served = await download('/cli/v0.0.9/rde.pyz');
    expect(served.status).toBe(200);
    expect(served.bytes.equals(older.bytes)).toBe(true);
    expect(store.requested).toContain('/v0.0.9/rde.pyz');
  });

  test('store bytes that do not match the recorded SHA-256 are refused: 502 and nothing of them served', async () => {
    const served = await download('/cli/v0.0.8/rde.pyz');
    expect(served.status).toBe(502);
    expect(JSON.parse(served.bytes.toString()).detail).toMatch(/does not match its recorded SHA-256/);
    expect(served.bytes.includes(tampered.bytes.subarray(0, 64))).toBe(false);
  });

  test('an unknown version, a malformed one or another artifact is 404, and the store is never asked', async () => {
    const before = [...store.requested];
    for (const route of ['/cli/v9.9.9/rde.pyz', '/cli/v1.0/rde.pyz', '/cli/v..%2f..%2fetc/rde.pyz', '/cli/other.pyz']) {
      const served = await download(route);
      expect({ route, status: served.status }).toEqual({ route, status: 404 });
    }
    expect(store.requested).toEqual(before);
  });

  test('the install script: sh in a fresh HOME installs the verified client; it signs in, shows the balance and dry-runs a call', async () => {
    const home = await folder('home');
    const script = await api(rde, 'GET', '/cli/install', { key: null });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await api(rde, 'GET', '/api/v2/cli/install', { key: null })).text).toBe(script.text);
    await writeFile(path.join(home, 'install.sh'), script.text);

    // A new user's PATH does not have ~/.local/bin yet: the script says how to add it.
    const installed = await runClient(home, 'sh', [path.join(home, 'install.sh')], {
      PATH: '/usr/local/bin:/usr/bin:/bin',
    });
    expect(installed).toMatchObject({ code: 0 });
    expect(installed.stdout).toMatch(/SHA-256 verified/);
    expect(installed.stdout).toMatch(/Add it to your PATH/);
    const rdeBin = path.join(home, '.local', 'bin', 'rde');
    expect(sha256(await readFile(rdeBin))).toBe(latest.sha256);
    expect((await runClient(home, 'rde', ['--version'])).stdout.trim()).toBe(`rde ${latest.version}`);

    // rde login: the browser leg is the sign-in API, as the dashboard calls it.
    const login = spawnClient(home, 'rde', ['login', '--no-browser']);
    let printed = '';
    const claimId = await new Promise<string>((resolve) =>
      login.stderr!.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const found = /\/api\/v2\/auth\/cli\/claim\/([^\s/?]+)/.exec(printed);
        if (found) resolve(found[1]!);
      }),
    );
    const { session } = await signIn(rde, freshEmail('cli-install'));
    const approved = await api(rde, 'POST', '/api/v2/auth/cli/approve', {
      ...withCookie(session),
      body: { claim_id: claimId },
    });
    expect(approved.status).toBe(200);
    const loginCode = await new Promise<number | null>((resolve) => login.on('exit', resolve));
    expect(loginCode).toBe(0);
    const credentials = path.join(home, '.config', 'rde', 'credentials.json');
    expect((await stat(credentials)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(credentials, 'utf8')) as { token: string; workspace_id: string };
    expect(saved.workspace_id).toBe(approved.body.workspace_id);

    const balance = await runClient(home, 'rde', ['balance']);
    expect(balance.code).toBe(0);
    const shown = JSON.parse(balance.stdout) as { balance: number };
    expect(shown).toEqual((await api(rde, 'GET', '/billing/balance', { key: saved.token })).body);

    const call = await runClient(home, 'rde', [
      'call',
      'mailfinder',
      'find',
      'first_name=Ada',
      'last_name=Lovelace',
      'domain=acme.com',
      '--dry-run',
    ]);
    expect(call.code).toBe(0);
    const dryRun = JSON.parse(call.stdout) as { dry_run: boolean; _meta: { would_call: string } };
    expect(dryRun).toMatchObject({ dry_run: true, _meta: { would_call: 'mailfinder.find' } });
    expect(JSON.parse((await runClient(home, 'rde', ['balance'])).stdout)).toEqual(shown);
  });

  test('a refused call exits with its class’s code and shows the spec’s error readably', async () => {
    const home = await folder('refused');
    const client = path.join(home, 'rde.pyz');
    await writeFile(client, latest.bytes);
    const refused = await runClient(home, 'python3', [
      client,
      '--url',
      rde.baseUrl,
      '--api-key',
      'rde_live_not-a-real-key-000000000000',
      'balance',
    ]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^rde: 401: Invalid API key/);
    const unknown = await runClient(home, 'python3', [
      client,
      '--url',
      rde.baseUrl,
      '--api-key',
      rde.ownerKey,
      'call',
      'nosuchtool',
      'find',
      '--dry-run',
    ]);
    expect(unknown.code).toBe(5);
  });

  test('self-update: an older client installs the latest, checked against its hash, in place', async () => {
    const home = await folder('update');
    const client = path.join(home, 'rde.pyz');
    const old = await download('/cli/v0.0.9/rde.pyz');
    await writeFile(client, old.bytes);
    await chmod(client, 0o755);
    const check = await runClient(home, 'python3', [client, '--url', rde.baseUrl, 'self-update', '--check']);
    expect(JSON.parse(check.stdout)).toEqual({
      current: '0.0.9',
      latest: latest.version,
      min_cli_version: '0.0.9',
      update_required: false,
    });
    const refused = await runClient(home, 'python3', [client, '--url', rde.baseUrl, 'self-update', '--to', '0.0.8']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/older than the oldest supported client, 0.0.9/);

    const updated = await runClient(home, 'python3', [client, '--url', rde.baseUrl, 'self-update']);
    expect(updated.code).toBe(0);
    expect(sha256(await readFile(client))).toBe(latest.sha256);
    expect((await runClient(home, 'python3', [client, '--version'])).stdout.trim()).toBe(`rde ${latest.version}`);
  });

  test('releases are immutable: a start whose record holds this build’s version with other bytes is refused', async () => {
    const record = path.join(await folder('immutable'), 'releases.json');
    await writeFile(record, JSON.stringify([{ version: latest.version, sha256: tampered.sha256 }]));
    await expect(startRde({ RDE_CLI_RELEASES_FILE: record })).rejects.toThrow(
      new RegExp(`${latest.version.replace(/\./g, '\\.')} is already released with SHA-256 ${tampered.sha256}`),
    );
  });
});
