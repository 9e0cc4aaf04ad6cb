/**
 * Sandbox benchmark: how many vendor lookups per second the sandbox answers, for a people search
 * and a work-email lookup. Not a test: it prints figures and never fails on a time.
 *
 *   npx tsx test/bench/sandbox.bench.ts
 *
 * The sandbox runs in this process, on a worker thread of its own, and the figure per core-second
 * divides by that thread's CPU time alone: what one core of sandbox answers, even on a machine
 * shared with other work. The keep-alive HTTP client (undici) runs on the main thread.
 * Vendors answer without latency and without rate limits, as later benchmarks will run them.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { Pool } from 'undici';
import pino from 'pino';
import { sandboxModule, vendorDescriptors } from '../../services/sandbox/src';
import { Universe } from '../../services/sandbox/src/domain/universe';

const SEED = 'rde-bench';
const CONCURRENCY = 32;
const WARMUP_REQUESTS = 3_000;
const MAX_REQUESTS = 40_000;
const MAX_SECONDS = 8;

interface Scenario {
  readonly name: string;
  readonly vendor: string;
  request(i: number): { method: 'GET' | 'POST'; path: string; body?: string };
}

if (isMainThread) void main();
else void serve();

/** Worker thread: the sandbox module, started as `rde start` would start it. */
async function serve(): Promise<void> {
  const running = await sandboxModule.start({
    env: { RDE_SANDBOX_SEED: SEED, RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false' },
    logger: pino({ level: 'warn' }),
    backends: undefined as never,
    addresses: { get: () => '' },
    allInOne: true,
  });
  parentPort!.postMessage(running.address);
  parentPort!.on('message', (message: 'cpu' | 'stop') => {
    if (message === 'cpu') parentPort!.postMessage(threadCpuSeconds());
    else void running.stop().then(() => process.exit(0));
  });
}

/**
 * CPU time of the calling thread, from Linux's scheduler statistics (nanoseconds on CPU), or null
 * elsewhere. On a shared machine this, unlike wall time, is what one core of sandbox costs.
 */
function threadCpuSeconds(): number | null {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e9;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  // The worker runs this same file; tsx's require hook compiles it there too.
  const tsx = JSON.stringify(require.resolve('tsx/cjs/api'));
  const worker = new Worker(`require(${tsx}).register(); require(${JSON.stringify(__filename)});`, { eval: true });
  const address = await new Promise<string>((resolve) => worker.once('message', resolve));
  const pool = new Pool(address, { connections: 16 });
  const inputs = benchInputs();
  const search = (size: number): Scenario => ({
    name: `people search, page of ${size} (PeopleGraph, by company domain)`,
    vendor: 'pplgraph',
    request: (i) => ({
      method: 'POST',
      path: '/pplgraph/v1/people/search',
      body: JSON.stringify({ query: { job_company_website: [inputs.domains[i % inputs.domains.length]] }, size }),
    }),
  });
  const scenarios: Scenario[] = [
    {
      name: 'work email lookup (MailFinder, name + domain)',
      vendor: 'mailfinder',
      request: (i) => ({
        method: 'GET',
        path: `/mailfinder/v1/email?${new URLSearchParams(inputs.people[i % inputs.people.length])}`,
      }),
    },
    search(1),
    search(10),
  ];

  console.log(
    `sandbox benchmark: seed ${SEED}; sandbox on its own worker thread; ${CONCURRENCY} requests in flight; ` +
      `machine load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
  );
  for (const scenario of scenarios) {
    await run(pool, scenario, WARMUP_REQUESTS, Infinity);
    const [cpuBefore, loopBefore] = [await ask(worker, 'cpu'), worker.performance.eventLoopUtilization()];
    const { requests, seconds } = await run(pool, scenario, MAX_REQUESTS, MAX_SECONDS);
    const cpuAfter = await ask(worker, 'cpu');
    // Where the thread's CPU time cannot be read, its event loop's busy time stands in (an upper bound).
    const sandboxSeconds =
      cpuBefore === null || cpuAfter === null
        ? worker.performance.eventLoopUtilization(loopBefore).active / 1000
        : cpuAfter - cpuBefore;
    console.log(
      `${scenario.name.padEnd(56)} ${format(requests / seconds)} lookups/s` +
        ` (${requests} in ${seconds.toFixed(1)} s; sandbox thread ${sandboxSeconds.toFixed(2)} s on CPU:` +
        ` ${format(requests / sandboxSeconds)} per core-second)`,
    );
  }
  await pool.close();
  worker.postMessage('stop');
}

function ask(worker: Worker, message: 'cpu'): Promise<number | null> {
  const answer = new Promise<number | null>((resolve) => worker.once('message', resolve));
  worker.postMessage(message);
  return answer;
}

/** Sends requests with CONCURRENCY in flight until `count` are answered or `maxSeconds` pass. */
async function run(
  pool: Pool,
  scenario: Scenario,
  count: number,
  maxSeconds: number,
): Promise<{ requests: number; seconds: number }> {
  const auth = vendorDescriptors.find((d) => d.id === scenario.vendor)!.auth;
  const headers = {
    [auth.header]: auth.scheme ? `${auth.scheme} ${auth.key}` : auth.key,
    'content-type': 'application/json',
  };
  const started = performance.now();
  const deadline = started + maxSeconds * 1000;
  let sent = 0;
  let answered = 0;
  const client = async () => {
    while (sent < count && performance.now() < deadline) {
      const response = await pool.request({ ...scenario.request(sent++), headers });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`${scenario.vendor} answered ${response.statusCode}`);
      answered++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  return { requests: answered, seconds: (performance.now() - started) / 1000 };
}

/** Real companies and employees of the benchmark's universe, spread over it. */
function benchInputs(): { domains: string[]; people: Record<string, string>[] } {
  const universe = new Universe({ seed: SEED, people: 1_000_000, companies: 50_000 });
  const domains = Array.from({ length: 2_000 }, (_, i) => universe.companies.get((i * 24_989) % 50_000).domain);
  const people = Array.from({ length: 2_000 }, (_, i) => {
    const id = (i * 499_979) % universe.people;
    const { first, last } = universe.nameOf(id);
    return { first_name: first, last_name: last, domain: universe.companies.get(universe.companyOf(id)).domain };
  });
  return { domains, people };
}

function format(rate: number): string {
  return Math.round(rate).toLocaleString('en-US').padStart(7);
}
