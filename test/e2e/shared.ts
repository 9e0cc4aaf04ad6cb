import { randomBytes } from 'node:crypto';
import type { LogLine, Mode, RunningRde } from './harness';

/**
 * One running RDE that many test files use in turn (decision 0081): jest's globalSetup starts one
 * per jest worker, so files of one worker run one after another against it and a counter read
 * before and after a file's own call sees only that call. A file attaching gets a workspace of its
 * own as `ownerKey`; `stop()` leaves the instance running. What would disturb the next file
 * (stopping or restarting a process, reading its output) is refused: such a file starts its own.
 */

/** What a test file needs to reach one shared instance: addresses only, no process handles. */
export interface SharedRde {
  readonly mode: Mode;
  readonly baseUrl: string;
  readonly sandboxUrl: string;
  readonly namespace: string;
  /** The variables `rde admin` needs to reach this instance's auth and billing. */
  readonly adminEnv: NodeJS.ProcessEnv;
  /** Each process name (`billing`, `billing/2`, `gateway`…) and its metrics URL. */
  readonly metricsUrls: Record<string, string>;
  /** Each module's process names. */
  readonly replicas: Record<string, string[]>;
  /** Each gateway process's base URL. */
  readonly gatewayUrls: Record<string, string>;
}

/** The environment variable through which globalSetup hands every test file the shared instances. */
export const SHARED_VARIABLE = 'RDE_E2E_SHARED_INSTANCES';

/** The shared instance of this jest worker in this mode, when the test command started one. */
export function sharedInstance(runMode: Mode): SharedRde | undefined {
  const published = process.env[SHARED_VARIABLE];
  if (!published) return undefined;
  const instances = JSON.parse(published) as SharedRde[];
  // Jest numbers its workers from 1; a run in band is worker 1.
  const found = instances[Number(process.env.JEST_WORKER_ID ?? 1) - 1];
  return found?.mode === runMode ? found : undefined;
}

type Admin = (args: string[], env: NodeJS.ProcessEnv) => Promise<string>;

/**
 * The sandbox's variables a file may ask of a shared instance: they are knobs the sandbox also takes
 * at run time, so the file's vendors are set so for as long as it is attached, and reset after (files
 * of one worker run one after another). Each maps the one value files ask for to its knobs.
 */
const SANDBOX_VARIABLES: Record<string, { value: string; knobs: object }> = {
  // Quick vendors: answers and async jobs at once.
  RDE_SANDBOX_LATENCY_SCALE: {
    value: '0',
    knobs: { latency_ms: { median: 0, p95: 0 }, job_duration_ms: { median: 0, p95: 0 } },
  },
  RDE_SANDBOX_RATE_LIMITS: { value: 'false', knobs: { rate_limit: null } },
};

/** Whether `env` asks only for sandbox settings a shared instance can take at run time. */
export function sandboxKnobsOnly(env: NodeJS.ProcessEnv): boolean {
  return Object.entries(env).every(([name, value]) => SANDBOX_VARIABLES[name]?.value === value);
}

/** Every vendor's knobs as `env` asks (see SANDBOX_VARIABLES), or back to the instance's defaults. */
async function setSandbox(shared: SharedRde, env: NodeJS.ProcessEnv | 'defaults'): Promise<void> {
  const [path, body] =
    env === 'defaults'
      ? ['/_admin/reset', { knobs: true, counters: false, jobs: false }]
      : ['/_admin/knobs', Object.assign({}, ...Object.keys(env).map((name) => SANDBOX_VARIABLES[name]!.knobs))];
  const response = await fetch(`${shared.sandboxUrl}${path}`, {
    method: path === '/_admin/knobs' ? 'PUT' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`sandbox ${path}: ${response.status} ${await response.text()}`);
}

/** How long the vendors must see no call before a file attaches, and the longest wait for that. */
const QUIET_MS = 400;
const QUIET_LIMIT_MS = 30_000;

/**
 * Waits until the sandbox's counters stop moving: a run the previous file left going (a dataset
 * still enriching, a workflow's webhook run) would otherwise count among the next file's calls.
 */
async function vendorsQuiet(shared: SharedRde): Promise<void> {
  const counters = async () => (await fetch(`${shared.sandboxUrl}/_admin/counters`)).text();
  const deadline = Date.now() + QUIET_LIMIT_MS;
  let last = await counters();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    const now = await counters();
    if (now === last) return;
    last = now;
  }
  console.warn(`the shared RDE's vendors were still being called after ${QUIET_LIMIT_MS} ms; attaching anyway`);
}

/**
 * A handle on a shared instance, with a fresh workspace whose owner's key is `ownerKey`, and the
 * sandbox set as `sandboxEnv` asks until `stop()`.
 */
export async function attach(
  shared: SharedRde,
  runAdmin: Admin,
  sandboxEnv: NodeJS.ProcessEnv = {},
): Promise<RunningRde> {
  const admin = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    runAdmin(args, { ...process.env, ...shared.adminEnv, ...env });
  const email = `shared.${randomBytes(6).toString('hex')}@example.com`;
  const { key } = JSON.parse(await admin(['create-workspace', '--email', email])) as { key: string };
  await vendorsQuiet(shared);
  if (Object.keys(sandboxEnv).length > 0) await setSandbox(shared, sandboxEnv);
  const refused = (what: string) => () => {
    throw new Error(
      `${what} is not allowed on the shared RDE (other test files use it next): ` +
        'start an own instance with startRde() without the `shared` option',
    );
  };
  return {
    baseUrl: shared.baseUrl,
    baseUrlOf: (gateway) => shared.gatewayUrls[gateway],
    sandboxUrl: shared.sandboxUrl,
    ownerKey: key,
    namespace: shared.namespace,
    admin,
    restartModule: refused('restartModule'),
    metricsUrlOf: (module) => shared.metricsUrls[module] ?? shared.metricsUrls.all,
    processOf: refused('processOf'),
    replicasOf: (module) => shared.replicas[module] ?? [module],
    stopModule: refused('stopModule'),
    stop: async () => {
      if (Object.keys(sandboxEnv).length > 0) await setSandbox(shared, 'defaults');
    },
    logLines: refused('logLines') as () => readonly LogLine[],
  };
}
