import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, freePort, waitUntil } from './harness';
import { bareEnv, isJson, run } from './processes';

// A newcomer's `./rde start`: no gRPC port, no service address and no backend set, only the gateway's port.

jest.setTimeout(60_000);

const started: ChildProcess[] = [];

async function startInstance(
  runtimeDir: string,
  variables: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'start'], {
    env: bareEnv({ PORT: String(port), RDE_RUNTIME_DIR: runtimeDir, ...variables }),
    stdio: 'ignore',
  });
  started.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(async () => (await fetch(`${url}/ready`).catch(() => undefined))?.status === 200, 60_000);
  // Ready before its record is written: wait for the record too.
  await waitUntil(async () => readdirSync(runtimeDir).includes(`${child.pid}.json`), 10_000);
  return { child, url };
}

async function balanceStatus(url: string, key: string): Promise<number> {
  return (await fetch(`${url}/billing/balance`, { headers: { authorization: `Bearer ${key}` } })).status;
}

afterEach(async () => {
  await Promise.all(
    started.splice(0).map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve(undefined);
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
});

const freshDir = () => mkdtempSync(path.join(tmpdir(), 'rde-runtime-'));

test('rde admin reaches the one running all-in-one without RDE_AUTH_ADDR, wherever its auth listens', async () => {
  const dir = freshDir();
  const { url } = await startInstance(dir, { RDE_AUTH_PORT: String(await freePort()) });
  const created = await run(['admin', 'create-workspace', '--email', 'newcomer@example.com'], {
    RDE_RUNTIME_DIR: dir,
  });
  expect(created.stderr).toBe('');
  expect(created.code).toBe(0);
  expect(await balanceStatus(url, JSON.parse(created.stdout).key)).toBe(200);
});

test('a second all-in-one starts and serves beside the first; admin asks which one, and --instance chooses', async () => {
  const dir = freshDir();
  const first = await startInstance(dir);
  const second = await startInstance(dir);
  expect((await fetch(`${first.url}/health`)).status).toBe(200);
  const ambiguous = await run(['admin', 'create-workspace', '--email', 'two@example.com'], { RDE_RUNTIME_DIR: dir });
  expect(ambiguous.code).toBe(1);
  expect(ambiguous.stderr).toContain('several RDE instances run auth');
  expect(ambiguous.stderr).toContain(`--instance ${first.child.pid}`);
  expect(ambiguous.stderr).toContain(`--instance ${second.child.pid}`);
  const chosen = await run(
    ['admin', '--instance', String(second.child.pid), 'create-workspace', '--email', 'two@example.com'],
    { RDE_RUNTIME_DIR: dir },
  );
  expect(chosen.code).toBe(0);
  const { key } = JSON.parse(chosen.stdout);
  expect(await balanceStatus(second.url, key)).toBe(200);
  expect(await balanceStatus(first.url, key)).toBe(401);
});

test('with no instance running, admin says so; a dead process record is ignored and removed', async () => {
  const dir = freshDir();
  // A pid no process has: the kernel's pid_max is far below it.
  writeFileSync(
    path.join(dir, '2147483646.json'),
    JSON.stringify({ pid: 2147483646, modules: { auth: '127.0.0.1:1' } }),
  );
  const result = await run(['admin', 'create-workspace', '--email', 'none@example.com'], { RDE_RUNTIME_DIR: dir });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('no running RDE instance runs auth');
  expect(result.stderr).toContain('RDE_AUTH_ADDR');
  expect(readdirSync(dir)).toEqual([]);
});

/**
 * Output of `rde start` until `until` appears in it; then `meanwhile` runs against the live
 * instance, rde (the pid its runtime record names, `script`'s child on a terminal) is stopped and
 * the output returned (or `meanwhile`'s failure thrown).
 */
function outputOf(
  command: string,
  args: string[],
  variables: NodeJS.ProcessEnv,
  until: RegExp,
  meanwhile: (output: string) => Promise<void> = async () => {},
): Promise<string> {
  const dir = variables.RDE_RUNTIME_DIR!;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: bareEnv(variables), stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(child);
    let output = '';
    let stopping = false;
    let failure: unknown;
    const stop = () => {
      for (const record of readdirSync(dir)) process.kill(Number(record.replace('.json', '')), 'SIGTERM');
    };
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (!stopping && until.test(output)) {
        stopping = true;
        meanwhile(output).then(stop, (error: unknown) => {
          failure = error;
          stop();
        });
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', () => {
      if (!stopping) reject(new Error(`exited before ${until}:\n${output}`));
      else if (failure !== undefined) reject(failure);
      else resolve(output);
    });
  });
}

test('on a terminal, rde start prints a banner: URL, docs, the dev key, its balance, a first curl, in memory', async () => {
  const port = await freePort();
  const output = await outputOf(
    'script',
    ['-q', '-e', '-c', `exec ${process.execPath} ${BIN} start`, '/dev/null'],
    { PORT: String(port), RDE_RUNTIME_DIR: freshDir(), RDE_LOG_LEVEL: 'info' },
    /in memory: data is lost on restart/,
    // The banner's curl, pasted as printed, answers the dev workspace's balance.
    async (printed) => {
      const curl = /try {6}(curl .+?)\r?\n/.exec(printed)![1];
      const answer = await new Promise<string>((done, fail) =>
        execFile('bash', ['-c', `${curl} -fsS`], (error, stdout) => (error ? fail(error) : done(stdout))),
      );
      const printedBalance = Number(/balance {2}(\d+) credits/.exec(printed)![1]);
      expect(JSON.parse(answer)).toMatchObject({ balance: printedBalance });
    },
  );
  const url = `http://localhost:${port}`;
  expect(output).toContain(`API      ${url}`);
  expect(output).toContain(`docs     ${url}/docs`);
  const key = /dev key {2}(rde_live_\S+) {2}\(new on every start; set RDE_DEV_API_KEY/.exec(output)?.[1];
  expect(key).toBeDefined();
  expect(output).toMatch(/balance {2}\d+ credits in the dev workspace/);
  expect(output).toContain(`curl -H "Authorization: Bearer ${key}" ${url}/billing/balance`);
  expect(output).toContain('in memory: data is lost on restart');
  // Logs are pretty on a terminal: no line is pino's JSON.
  expect(output.split(/\r?\n/).filter((line) => line.startsWith('{"level"'))).toEqual([]);
});

test('without a terminal, every line rde start prints is JSON (no banner, no plain-text warning of a library)', async () => {
  const port = await freePort();
  const output = await outputOf(
    process.execPath,
    [BIN, 'start'],
    { PORT: String(port), RDE_RUNTIME_DIR: freshDir(), RDE_LOG_LEVEL: 'info' },
    /"msg":"RDE started"/,
  );
  const lines = output.split('\n').filter((line) => line !== '');
  expect(lines.filter((line) => !isJson(line))).toEqual([]);
  expect(output).not.toContain('RDE is running');
});

test.each([
  [{ RDE_LOG_LEVEL: 'loud' }, 'RDE_LOG_LEVEL="loud" is invalid'],
  [{ RDE_MONGO_URL: 'mongodb://127.0.0.1:1' }, 'missing: RDE_KAFKA_BROKERS, RDE_REDIS_URL'],
])('%j is refused with one message and exit 2, before any module starts', async (variables, message) => {
  const result = await run(['start'], { PORT: String(await freePort()), RDE_RUNTIME_DIR: freshDir(), ...variables });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(message);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stdout).not.toContain('module started');
});

describe('a taken port is one line naming the variable that sets it', () => {
  let holder: Server;
  let taken: number;
  beforeEach(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    taken = (holder.address() as { port: number }).port;
  });
  afterEach(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  test.each(['PORT', 'RDE_AUTH_PORT', 'RDE_METRICS_PORT'])('%s', async (variable) => {
    const gateway = variable === 'PORT' ? {} : { PORT: String(await freePort()) };
    const result = await run(['start'], {
      ...gateway,
      RDE_HTTP_HOST: '127.0.0.1',
      RDE_METRICS_HOST: '127.0.0.1',
      [variable]: String(taken),
      RDE_RUNTIME_DIR: freshDir(),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${variable}=${taken}: the port is in use; set ${variable} to a free port (0 = any)`,
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});
