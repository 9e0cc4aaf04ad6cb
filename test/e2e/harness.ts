import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { HealthProbe } from '../../services/platform/src/grpc/client';
import { attach, sandboxKnobsOnly, sharedInstance, type SharedRde } from './shared';
import { removeNamespace } from './namespace';

/**
 * Starts RDE the way a user or an SRE would: the real binary, as child processes. `all` is one
 * process with embedded adapters; `distributed` is one process per service over loopback gRPC
 * with the production adapters (real Kafka, MongoDB-wire server, Redis from `deploy/backends.sh env`).
 */
export type Mode = 'all' | 'distributed';

export const mode: Mode = process.env.RDE_E2E_MODE === 'distributed' ? 'distributed' : 'all';

export const BIN = path.resolve(__dirname, '../../services/rde/dist/bin.js');
const SERVICES = ['auth', 'billing', 'catalog', 'waterfall', 'dataset', 'workflow', 'mcp'] as const;
const GRPC_SERVICES = SERVICES;
/** Extra node flags for every RDE process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` for a benchmark's profile. */
const NODE_FLAGS = (process.env.RDE_E2E_NODE_FLAGS ?? '').split(' ').filter(Boolean);

export interface RunningRde {
  readonly baseUrl: string;
  /** Where one gateway process serves (`gateway`, `gateway/2`… with the `gateways` start option). */
  baseUrlOf(gateway: string): string;
  /** The sandbox vendors' base URL (admin API under `/_admin/`). */
  readonly sandboxUrl: string;
  /** The dev workspace owner's key (RDE_DEV_API_KEY). */
  readonly ownerKey: string;
  /** The prefix of this run's databases, topics and keys (distributed mode; '' in all-in-one). */
  readonly namespace: string;
  /** Runs `rde admin …` against this deployment (`env` overrides its variables); resolves with its stdout. */
  admin(args: string[], env?: NodeJS.ProcessEnv): Promise<string>;
  /**
   * Restarts a stopped module's process with the same configuration (distributed mode), then waits
   * until the gateway is ready, or, for one replica of several, until that replica serves again.
   */
  restartModule(module: string): Promise<void>;
  /** The Prometheus endpoint of the process running a module. */
  metricsUrlOf(module: string): string;
  /** The process running a module (every module shares one in `all` mode). */
  processOf(module: string): ChildProcess;
  /**
   * The names of a module's processes: `billing` alone, or `billing`, `billing/2`, … when it runs
   * replicated. Each name works wherever a module name does (processOf, stopModule, restartModule).
   */
  replicasOf(module: string): string[];
  stopModule(module: string, signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
  /** Every process's output so far, line by line, each line with the name of the process that wrote it. */
  logLines(): readonly LogLine[];
}

/** One line a process of RDE wrote to stdout or stderr. */
export interface LogLine {
  /** `billing`, `billing/2`, `gateway`, `all`… */
  readonly process: string;
  readonly text: string;
}

/**
 * How long a start may take to be ready: two minutes (a distributed start of 13 processes takes
 * seconds on a quiet machine, and near a minute on a loaded one); RDE_E2E_READY_MS overrides.
 */
const READY_MS = Number(process.env.RDE_E2E_READY_MS ?? 120_000);

/** Ports this test process already handed out: the kernel may offer a just-closed one again. */
const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  for (;;) {
    const port = await unboundPort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function unboundPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const PRODUCTION_ADAPTERS = ['RDE_MONGO_URL', 'RDE_KAFKA_BROKERS', 'RDE_REDIS_URL'];

/** All-in-one mode means the embedded adapters, whatever servers the test command started. */
function inheritedEnv(runMode: Mode): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  if (runMode === 'all') for (const name of PRODUCTION_ADAPTERS) delete inherited[name];
  return inherited;
}

function productionEnv(): NodeJS.ProcessEnv {
  const missing = PRODUCTION_ADAPTERS.filter((name) => !process.env[name]);
  if (missing.length > 0) throw new Error(`distributed mode needs ${missing.join(', ')} (deploy/backends.sh env)`);
  return {};
}

export interface StartOptions {
  /** Processes per gRPC module in distributed mode, e.g. `{ billing: 3 }` (default: `defaultReplicas`). */
  readonly replicas?: Partial<Record<(typeof GRPC_SERVICES)[number], number>>;
  /**
   * All-in-one mode: the sandbox in a process of its own beside the all-in-one, as real vendors are
   * remote (a benchmark then measures RDE's process without the vendors' imitation in it).
   */
  readonly vendorsApart?: boolean;
  /** Gateway processes in distributed mode, each on its own port (default 1): `gateway`, `gateway/2`, … */
  readonly gateways?: number;
  /**
   * Attach to the test command's shared instance when this start asks for nothing else (no env but
   * the sandbox's quick-vendor settings, the default replicas): a fresh workspace as `ownerKey`, no
   * process handles, `stop()` leaves it running (decision 0081). Without a shared instance (a file
   * run alone) it starts its own.
   */
  readonly shared?: boolean;
}

/** Every module of RDE's own, the all-in-one's target when the sandbox runs apart. */
const ALL_BUT_VENDORS = [...SERVICES, 'gateway'].join(',');

/** The services that write money or run work: ARCHITECTURE.md runs them replicated (decision 0011). */
const REPLICATED: readonly string[] = ['billing', 'catalog', 'waterfall'];

/**
 * How many processes a module gets in distributed mode when the test does not say: two of each
 * money writer, as production runs them, so every suite shows nothing relies on one writer.
 * RDE_E2E_REPLICAS overrides the two (`1` for a quicker local run; the test command keeps 2).
 */
export function defaultReplicas(module: string): number {
  return REPLICATED.includes(module) ? Number(process.env.RDE_E2E_REPLICAS ?? 2) : 1;
}

/** `billing` for the first replica, `billing/2` for the second, … */
const replicaName = (module: string, replica: number) => (replica === 1 ? module : `${module}/${replica}`);
const moduleOf = (name: string) => name.split('/')[0];

/** A start that failed because a port found free was bound by another process before RDE bound it. */
class PortTaken extends Error {}

/**
 * Starts RDE in this run's mode, or in `runMode` (a benchmark measures both in one run), on ports
 * found free. Every process must know every address before it starts (distributed mode), so ports
 * are chosen up front; another process on the machine may bind one between the check and RDE's
 * bind. Such a start fails with EADDRINUSE and is made again on fresh ports, so a parallel test run
 * never breaks this one.
 */
export async function startRde(
  extraEnv: NodeJS.ProcessEnv = {},
  runMode: Mode = mode,
  options: StartOptions = {},
): Promise<RunningRde> {
  const shared = options.shared && asksForDefaults(extraEnv, runMode, options) ? sharedInstance(runMode) : undefined;
  if (shared) return attach(shared, runAdmin, extraEnv);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(extraEnv, runMode, options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

/**
 * Whether a start asks for the default configuration: no env of its own but sandbox settings the
 * shared instance takes at run time (sandboxKnobsOnly), every module's default replicas.
 */
function asksForDefaults(extraEnv: NodeJS.ProcessEnv, runMode: Mode, options: StartOptions): boolean {
  const { replicas = {}, vendorsApart = false, gateways = 1 } = options;
  const defaultCounts = Object.entries(replicas).every(
    ([module, count]) => runMode === 'all' || count === defaultReplicas(module),
  );
  return sandboxKnobsOnly(extraEnv) && !vendorsApart && gateways === 1 && defaultCounts;
}

/** What a started instance's test files need to attach to it, kept for `shareable`. */
const shareables = new WeakMap<RunningRde, SharedRde>();

/** The addresses through which other test files attach to an instance this process started. */
export function shareable(rde: RunningRde): SharedRde {
  return shareables.get(rde)!;
}

async function startOnce(extraEnv: NodeJS.ProcessEnv, runMode: Mode, options: StartOptions): Promise<RunningRde> {
  const output: LogLine[] = [];
  const children = new Map<string, ChildProcess>();
  /** Each process's metrics port, kept across a restart. */
  const metricsPorts = new Map<string, number>();
  /** Each replica's own env: the gRPC port it binds. */
  const ownEnv = new Map<string, NodeJS.ProcessEnv>();
  const launch = (name: string, env: NodeJS.ProcessEnv) => {
    const target = name === 'all' && options.vendorsApart ? ALL_BUT_VENDORS : moduleOf(name);
    const metrics = { RDE_METRICS_PORT: String(metricsPorts.get(name)), RDE_METRICS_HOST: '127.0.0.1' };
    const child = spawn(process.execPath, [...NODE_FLAGS, BIN, 'start', `--target=${target}`], {
      env: {
        ...inheritedEnv(runMode),
        RDE_LOG_LEVEL: 'warn',
        RDE_DRAIN_MS: '1500',
        ...metrics,
        ...env,
        ...ownEnv.get(name),
        // Unthrottled vendors publish no rate worth pacing to (decision 0079).
        ...(extraEnv.RDE_SANDBOX_RATE_LIMITS === 'false' && { RDE_VENDOR_PACING: 'false' }),
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Whole lines, each named by its process: a pipe's chunks split lines and interleave processes.
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (text) =>
        output.push({ process: name, text }),
      );
    }
    return child;
  };
  const gatewayPort = await freePort();
  const sandboxPort = await freePort();
  const ownerKey = `rde_live_e2e${randomBytes(16).toString('hex')}`;
  const shared: NodeJS.ProcessEnv = {
    PORT: String(gatewayPort),
    RDE_SANDBOX_PORT: String(sandboxPort),
    RDE_SANDBOX_ADDR: `http://127.0.0.1:${sandboxPort}`,
    RDE_DEV_API_KEY: ownerKey,
    // The suites were written against the dev workspace's 100 free credits; a test wanting the
    // starting grant (decision 0051) sets RDE_DEV_GRANT_CREDITS itself.
    RDE_DEV_GRANT_CREDITS: '0',
    // Where separate processes reach the gateway, e.g. the waterfall's provider-job callback URLs.
    RDE_GATEWAY_ADDR: `http://127.0.0.1:${gatewayPort}`,
  };
  const replicas = new Map<string, string[]>();
  for (const service of GRPC_SERVICES) {
    const count = runMode === 'distributed' ? (options.replicas?.[service] ?? defaultReplicas(service)) : 1;
    const names: string[] = [];
    const addresses: string[] = [];
    for (let replica = 1; replica <= count; replica++) {
      const port = await freePort();
      names.push(replicaName(service, replica));
      addresses.push(`127.0.0.1:${port}`);
      ownEnv.set(replicaName(service, replica), { [`RDE_${service.toUpperCase()}_PORT`]: String(port) });
    }
    replicas.set(service, names);
    // What a process of this module binds when it has no own port (all-in-one); every client gets the list.
    shared[`RDE_${service.toUpperCase()}_PORT`] = ownEnv.get(service)![`RDE_${service.toUpperCase()}_PORT`];
    shared[`RDE_${service.toUpperCase()}_ADDR`] = addresses.join(',');
  }
  const gatewayPorts = new Map([['gateway', gatewayPort]]);
  for (let replica = 2; replica <= (runMode === 'distributed' ? (options.gateways ?? 1) : 1); replica++) {
    const port = await freePort();
    gatewayPorts.set(replicaName('gateway', replica), port);
    ownEnv.set(replicaName('gateway', replica), { PORT: String(port) });
  }
  const targets =
    runMode === 'all'
      ? [...(options.vendorsApart ? ['sandbox'] : []), 'all']
      : ['sandbox', ...SERVICES.flatMap((s) => replicas.get(s)!), ...gatewayPorts.keys()];
  if (runMode === 'distributed') replicas.set('gateway', [...gatewayPorts.keys()]);
  /** The process running a module: its own, else the all-in-one's. */
  const processName = (module: string) => (runMode === 'all' && !targets.includes(module) ? 'all' : module);
  const namespace = runMode === 'distributed' ? `e2e${Date.now()}_` : '';
  if (runMode === 'distributed') Object.assign(shared, productionEnv(), { RDE_NAMESPACE: namespace });
  for (const target of targets) metricsPorts.set(target, await freePort());
  for (const target of targets) children.set(target, launch(target, shared));
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  const rde: RunningRde = {
    baseUrl,
    baseUrlOf: (gateway) => `http://127.0.0.1:${gatewayPorts.get(gateway)}`,
    sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
    ownerKey,
    namespace,
    admin: (args, env = {}) => runAdmin(args, { ...process.env, ...shared, ...extraEnv, ...env }),
    restartModule: async (module) => {
      children.set(module, launch(module, shared));
      const gateway = gatewayPorts.has(module) ? rde.baseUrlOf(module) : baseUrl;
      await waitUntil(async () => (await fetch(`${gateway}/ready`)).status === 200, READY_MS);
      if (gatewayPorts.has(module)) return;
      const port = ownEnv.get(module)?.[`RDE_${moduleOf(module).toUpperCase()}_PORT`];
      if (replicas.get(moduleOf(module))!.length > 1) await waitUntil(() => serving(`127.0.0.1:${port}`), READY_MS);
    },
    metricsUrlOf: (module) => `http://127.0.0.1:${metricsPorts.get(processName(module))}/metrics`,
    processOf: (module) => children.get(processName(module))!,
    replicasOf: (module) => replicas.get(module as (typeof GRPC_SERVICES)[number]) ?? [module],
    stopModule: (module, signal = 'SIGTERM') => stopChild(rde.processOf(module), signal),
    stop: async () => {
      await Promise.all([...children.values()].map((child) => stopChild(child, 'SIGTERM')));
      await removeNamespace(namespace, { ...process.env, ...extraEnv });
    },
    logLines: () => output,
  };
  const exited = () => [...children.values()].some((child) => child.exitCode !== null || child.signalCode !== null);
  try {
    const ready = async (port: number) => (await fetch(`http://127.0.0.1:${port}/ready`)).status === 200;
    const allReady = async () => (await Promise.all([...gatewayPorts.values()].map(ready))).every(Boolean);
    await waitUntil(async () => exited() || (await allReady()), READY_MS);
    if (exited()) throw new Error('a process exited before RDE was ready');
  } catch (error) {
    await rde.stop();
    const printed = output.map(({ process, text }) => `[${process}] ${text}\n`).join('');
    const failure = `RDE did not become ready: ${String(error)}\n${printed}`;
    // RDE names a taken port as a settings error ("the port is in use"); a library may say EADDRINUSE.
    const portTaken = printed.includes('EADDRINUSE') || printed.includes('the port is in use');
    throw portTaken ? new PortTaken(failure) : new Error(failure);
  }
  const urls = (names: Iterable<string>, url: (name: string) => string) =>
    Object.fromEntries([...names].map((name) => [name, url(name)]));
  shareables.set(rde, {
    mode: runMode,
    baseUrl,
    sandboxUrl: rde.sandboxUrl,
    namespace,
    adminEnv: { ...shared, ...extraEnv },
    metricsUrls: urls(metricsPorts.keys(), (name) => `http://127.0.0.1:${metricsPorts.get(name)}/metrics`),
    replicas: Object.fromEntries(replicas),
    gatewayUrls: urls(gatewayPorts.keys(), rde.baseUrlOf),
  });
  return rde;
}

/** Whether the gRPC server at `address` answers its health check SERVING. */
async function serving(address: string): Promise<boolean> {
  const probe = new HealthProbe(address);
  try {
    return (await probe.check()) === 'SERVING';
  } finally {
    probe.close();
  }
}

function runAdmin(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [BIN, 'admin', ...args], { env }, (error, stdout, stderr) =>
      error ? reject(new Error(`rde admin ${args.join(' ')} failed (exit ${error.code}): ${stderr}`)) : resolve(stdout),
    ),
  );
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number, intervalMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await condition()) return;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
}
