import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { api, untilSettled, type Gateway } from './api';
import { mode, waitUntil } from './harness';
import { isJson } from './processes';
import { removeNamespace } from './namespace';

/**
 * `deploy/local.sh`, the local distributed stack, as a newcomer runs it: `up`, a paid call through
 * its gateway, `down`; and an `up` that fails, which must leave nothing running. It runs the real
 * backends' servers of the distributed stage (RDE_MONGO_URL…), so distributed mode only. Each test
 * has its own state directory, ports and namespace: a developer's own stack is never touched.
 */
const describeDistributed = mode === 'distributed' ? describe : describe.skip;

jest.setTimeout(240_000);

const LOCAL_SH = path.resolve(__dirname, '../../deploy/local.sh');
/** local.sh's ports lie within RDE_LOCAL_PORT … +299 (its header). */
const PORT_SPAN = 300;
/** Below the kernel's ephemeral range (32768 on): no outgoing connection takes one meanwhile. */
const BASE_PORTS = { from: 20_000, to: 32_768 - PORT_SPAN };

interface Run {
  status: number | null;
  output: string;
}

/** Starts `deploy/local.sh <command>`; `finished` resolves with its exit status and its stdout and stderr together. */
function startLocalSh(command: string, env: NodeJS.ProcessEnv): { child: ChildProcess; finished: Promise<Run> } {
  const child = spawn('bash', [LOCAL_SH, command], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const finished = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
  return { child, finished };
}

const localSh = (command: string, env: NodeJS.ProcessEnv) => startLocalSh(command, env).finished;

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** A base port whose whole span is free. */
async function freeBasePort(): Promise<number> {
  for (;;) {
    const base = BASE_PORTS.from + Math.floor(Math.random() * (BASE_PORTS.to - BASE_PORTS.from));
    let free = true;
    for (let port = base; free && port < base + PORT_SPAN; port++) free = await bindable(port);
    if (free) return base;
  }
}

/** A stack of its own: state directory, ports and namespace; built already by the test command. */
async function ownStack(): Promise<{ state: string; env: NodeJS.ProcessEnv }> {
  const state = await mkdtemp(path.join(tmpdir(), 'rde-local-stack-'));
  const env = {
    RDE_LOCAL_STATE: state,
    RDE_LOCAL_PORT: String(await freeBasePort()),
    RDE_LOCAL_NAMESPACE: `localstack${Date.now()}_`,
    RDE_LOCAL_SKIP_BOOTSTRAP: '1',
    // Vendors answer at once: the test checks the stack, not the vendors' imitated latency.
    RDE_SANDBOX_LATENCY_SCALE: '0',
  };
  return { state, env };
}

/**
 * The processes still running that `up` started for `state`: every one inherits RDE_LOCAL_STATE.
 * An exited process whose parent is gone may stay a zombie (an init that does not reap); a zombie
 * runs nothing and shows no environment, so it is not counted.
 */
async function processesOf(state: string): Promise<number[]> {
  const marker = `\0RDE_LOCAL_STATE=${state}\0`;
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const environ = await readFile(`/proc/${entry}/environ`, 'latin1').catch(() => '');
    if (`\0${environ}`.includes(marker)) found.push(Number(entry));
  }
  return found;
}

/** Each line of the processes' logs in `state` that is not JSON, with its log's name. */
async function nonJsonLogLines(state: string): Promise<string[]> {
  const logs = (await readdir(state)).filter((name) => name.endsWith('.log'));
  const lines = await Promise.all(
    logs.map(async (log) =>
      (await readFile(path.join(state, log), 'utf8'))
        .split('\n')
        .filter((line) => line !== '' && !isJson(line))
        .map((line) => `${log}: ${line}`),
    ),
  );
  return lines.flat();
}

/** The gateway URL and owner key that `up`'s banner prints. */
function gatewayOf(banner: string): Gateway {
  const baseUrl = /gateway\s+(http:\/\/\S+)/.exec(banner)?.[1];
  const ownerKey = /owner key\s+(rde_live_\w+)/.exec(banner)?.[1];
  if (!baseUrl || !ownerKey) throw new Error(`no gateway and owner key in up's output:\n${banner}`);
  return { baseUrl, ownerKey };
}

describeDistributed('deploy/local.sh, the local distributed stack', () => {
  let stack: { state: string; env: NodeJS.ProcessEnv };

  beforeEach(async () => {
    stack = await ownStack();
  });

  // Whatever a test left behind is stopped: `down` is harmless after a `down` or a failed `up`.
  afterEach(async () => {
    await localSh('down', stack.env);
    await rm(stack.state, { recursive: true, force: true });
    await removeNamespace(stack.env.RDE_LOCAL_NAMESPACE!, process.env);
  });

  /** A failed `up`: exit 1, why, the log tail of the process at fault, and nothing left running. */
  async function expectFailedUp(up: Run, reason: string, process: string): Promise<void> {
    expect(up.status).toBe(1);
    expect(up.output).toContain(reason);
    expect(up.output).toContain(`the last 20 lines of ${stack.state}/${process}.log:`);
    expect(up.output).toContain('up failed; stopping what it started');
    expect(await processesOf(stack.state)).toEqual([]);
  }

  test('up starts every process; a paid call through its gateway settles through Kafka; down stops them all', async () => {
    const up = await localSh('up', stack.env);
    expect(up).toMatchObject({ status: 0, output: expect.stringContaining('RDE is up: 12 processes') });
    expect(await processesOf(stack.state)).toHaveLength(12);
    const gateway = gatewayOf(up.output);

    const call = await api(gateway, 'POST', '/tools/pplgraph/search', {
      body: { payload: { query: { job_title: ['Software Engineer'] }, size: 3 } },
    });
    expect(call.status).toBe(200);
    const { run_id: runId, credits_charged: charged, balance } = call.body._meta;
    expect(charged).toBe(3);
    await untilSettled(gateway, gateway.ownerKey, 60_000);
    const settled = (await api(gateway, 'GET', '/billing/balance')).body;
    expect(settled).toMatchObject({ balance, reserved: 0 });
    expect(settled.recent_ledger).toContainEqual(
      expect.objectContaining({ id: `${runId}:0:pplgraph.search`, kind: 'charge', amount: -charged }),
    );

    const again = await localSh('up', stack.env);
    expect(again).toMatchObject({ status: 1, output: expect.stringContaining('already up') });
    expect(await localSh('status', stack.env)).toMatchObject({
      status: 0,
      output: expect.stringContaining('gateway ready'),
    });

    expect(await localSh('down', stack.env)).toMatchObject({ status: 0 });
    expect(await processesOf(stack.state)).toEqual([]);
    // From start to stop, every process wrote JSON lines only: no library's plain text (decision 0058).
    expect(await nonJsonLogLines(stack.state)).toEqual([]);
    expect(await localSh('status', stack.env)).toMatchObject({ status: 3, output: 'not up\n' });
  });

  test('up stops as soon as a process dies: it names it, prints its log tail, exits 1 and leaves nothing running', async () => {
    // Only the dataset module reads this variable, so only its process dies.
    const up = await localSh('up', { ...stack.env, RDE_DATASET_WRITE_BATCH: '0' });
    await expectFailedUp(up, 'dataset-1 exited (status 2) before the gateway was ready', 'dataset-1');
    expect(up.output).toContain('RDE_DATASET_WRITE_BATCH="0" is invalid');

    expect(await localSh('status', stack.env)).toMatchObject({ status: 3, output: 'not up\n' });
    expect(await localSh('down', stack.env)).toMatchObject({ status: 0, output: '' });
  });

  test('up that times out waiting for readiness prints the gateway log tail, exits 1 and leaves nothing running', async () => {
    const up = await localSh('up', { ...stack.env, RDE_LOCAL_READY_SECONDS: '0' });
    await expectFailedUp(up, 'the gateway did not become ready within 0 s', 'gateway-1');
  });

  test('an up interrupted while it waits for readiness (SIGTERM) stops what it started and exits 130', async () => {
    const { child, finished } = startLocalSh('up', stack.env);
    // The gateway is launched last: every process is running once its pid file is there.
    await waitUntil(async () => existsSync(path.join(stack.state, 'gateway-1.pid')), 60_000);
    child.kill('SIGTERM');
    const up = await finished;
    expect(up).toMatchObject({ status: 130, output: expect.stringContaining('up failed; stopping what it started') });
    expect(await processesOf(stack.state)).toEqual([]);
  });

  test.each([
    ['RDE_LOCAL_PORT', '65400', 'RDE_LOCAL_PORT="65400" is invalid'],
    ['RDE_LOCAL_PORT', 'http', 'RDE_LOCAL_PORT="http" is invalid'],
    ['RDE_LOCAL_READY_SECONDS', 'soon', 'RDE_LOCAL_READY_SECONDS="soon" is invalid'],
  ])('a bad %s (%s) is refused before anything starts', async (variable, value, message) => {
    const state = path.join(stack.state, 'never-created');
    const up = await localSh('up', { ...stack.env, RDE_LOCAL_STATE: state, [variable]: value });
    expect(up).toMatchObject({ status: 2, output: expect.stringContaining(message) });
    await expect(readdir(state)).rejects.toThrow('ENOENT');
  });
});
