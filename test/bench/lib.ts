/**
 * What the benchmarks share: workspaces with credits, the paid call they time, concurrency,
 * percentiles, the settled check and an autocannon run. Figures only; nothing here asserts a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { api, sandboxCounters, untilSettled as untilSettledWithin } from '../e2e/api';
import { freePort, waitUntil, type RunningRde } from '../e2e/harness';

/** One profile a call: at most one credit, so a free grant (100 credits) covers this many calls. */
export const PAID_CALL_BODY = { payload: { query: { job_title: ['Software Engineer'] }, size: 1 } };
const CALLS_PER_WORKSPACE = 90;

/** Fresh workspaces, each with its own free grant: enough for `calls` paid calls. */
export async function workspaceKeys(rde: RunningRde, calls: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < Math.ceil(calls / CALLS_PER_WORKSPACE); i++) {
    const created = JSON.parse(
      await rde.admin([
        'create-workspace',
        '--email',
        `bench-${i}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`,
      ]),
    ) as { key: string };
    keys.push(created.key);
  }
  return keys;
}

export async function paidCall(rde: RunningRde, key: string, headers: Record<string, string> = {}): Promise<void> {
  const response = await api(rde, 'POST', '/tools/pplgraph/search', { key, headers, body: PAID_CALL_BODY });
  if (response.status !== 200) throw new Error(`paid call answered ${response.status}: ${response.text}`);
}

/** Where and how the catalog sends the paid call's search to the sandbox's PeopleGraph. */
const VENDOR_SEARCH = {
  path: '/pplgraph/v1/people/search',
  headers: { accept: 'application/json', 'x-api-key': 'sbx-pplgraph-5f2c9a' },
};

/** One vendor call made directly, as the catalog makes it. */
export async function vendorCall(rde: RunningRde): Promise<void> {
  const response = await fetch(`${rde.sandboxUrl}${VENDOR_SEARCH.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...VENDOR_SEARCH.headers },
    body: JSON.stringify(PAID_CALL_BODY.payload),
  });
  await response.text();
  if (response.status !== 200) throw new Error(`the vendor answered ${response.status}`);
}

/** Polls `/billing/balance` every 2 ms (settlement lags are measured with it) until no hold is open. */
export function untilSettled(rde: RunningRde, key: string): Promise<void> {
  return untilSettledWithin(rde, key, 120_000, 2);
}

/** How long after its answer each of `samples` lone paid calls is settled. */
export async function settlementLags(rde: RunningRde, keys: string[], samples: number): Promise<number[]> {
  const lags: number[] = [];
  for (let i = 0; i < samples; i++) {
    const key = keys[i % keys.length];
    await paidCall(rde, key);
    const answered = performance.now();
    await untilSettled(rde, key);
    lags.push(performance.now() - answered);
  }
  return lags;
}

export async function timed(work: () => Promise<unknown>): Promise<number> {
  const began = performance.now();
  await work();
  return performance.now() - began;
}

/** Runs `count` tasks, at most `concurrency` at a time, and returns their results in order. */
export async function runConcurrently<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** `count` calls at `concurrency` after one warm-up call: calls per second and each call's latency. */
export async function throughput(
  count: number,
  concurrency: number,
  call: (index: number) => Promise<unknown>,
): Promise<{ perSecond: number; latencies: number[] }> {
  await call(0);
  const began = performance.now();
  const latencies = await runConcurrently(count, concurrency, (i) => timed(() => call(i)));
  return { perSecond: count / ((performance.now() - began) / 1000), latencies };
}

export interface Percentiles {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export function percentiles(milliseconds: number[]): Percentiles {
  const sorted = [...milliseconds].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] };
}

export function describePercentiles(name: string, milliseconds: number[]): string {
  const { p50, p99, max } = percentiles(milliseconds);
  return `${name}: n=${milliseconds.length} median ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms`;
}

/** The modules whose processes are RDE's own (the sandbox imitates the vendors). */
const RDE_MODULES = ['gateway', 'auth', 'billing', 'catalog', 'dataset', 'waterfall', 'workflow', 'mcp'];

/**
 * CPU seconds the RDE processes have used so far (user + system, from /proc): a figure that, unlike
 * calls per second, does not depend on what else the machine runs. Every replica counts. The
 * sandbox's own process is left out (distributed, or all-in-one started with `vendorsApart`); an
 * all-in-one process that hosts the sandbox counts it. `modules` narrows it to the processes a
 * request goes through, leaving out the others' idle work.
 */
export function rdeCpuSeconds(rde: RunningRde, modules: readonly string[] = RDE_MODULES): number {
  const pids = new Set(modules.flatMap((module) => rde.replicasOf(module).map((name) => rde.processOf(name).pid)));
  let seconds = 0;
  for (const pid of pids) seconds += processCpuSeconds(pid!);
  return seconds;
}

/** CPU seconds (user + system) process `pid` has used so far, from /proc. */
export function processCpuSeconds(pid: number): number {
  // Fields 14 and 15 (utime, stime) follow the command name, which ends with the last ')'.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').pop()!.trim().split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** Linux's USER_HZ, the unit of /proc's CPU times. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Runs autocannon; any answer that is not 2xx, or any socket error, fails the benchmark. */
async function autocannonRun(options: autocannon.Options): Promise<autocannon.Result> {
  const result = await autocannon(options);
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${options.url}: ${result.non2xx} answers not 2xx and ${result.errors} errors under load`);
  }
  return result;
}

export interface GetLoad {
  readonly connections: number;
  readonly seconds: number;
  readonly headers?: Record<string, string>;
}

/** Requests per second autocannon reaches on one GET for `seconds`, after a one-second warm-up. */
export async function requestsPerSecond(url: string, options: GetLoad): Promise<number> {
  return (await measuredGets(url, options, () => 0)).perSecond;
}

/**
 * `requestsPerSecond`, and what each answered request cost in CPU: `cpuSeconds` is read around the
 * measured run (not the warm-up), e.g. `rdeCpuSeconds` of the processes serving it.
 */
export async function measuredGets(
  url: string,
  options: GetLoad,
  cpuSeconds: () => number,
): Promise<{ perSecond: number; cpuMsPerRequest: number }> {
  const run = (duration: number) =>
    autocannonRun({ url, connections: options.connections, duration, headers: options.headers });
  await run(1);
  const cpuBefore = cpuSeconds();
  const result = await run(options.seconds);
  const cpuMsPerRequest = ((cpuSeconds() - cpuBefore) * 1000) / result.requests.total;
  return { perSecond: result.requests.average, cpuMsPerRequest };
}

/** Calls per second answered 2xx, and how many calls were not (an answer other than 2xx, or none). */
export interface PostRate {
  readonly perSecond: number;
  readonly failed: number;
}

/** " (N failed)" after a figure whose run had failures, else nothing. */
export const failures = (rate: PostRate) => (rate.failed > 0 ? ` (${rate.failed} failed)` : '');

/**
 * `amount` POSTs of the paid call's body at `connections` concurrent connections (autocannon: the
 * client costs little beside the server), each bearer taken in turn from `keys`. A loaded machine
 * may make calls fail or time out (after two minutes): they are counted, not fatal.
 */
export async function postsPerSecond(
  url: string,
  options: { connections: number; amount: number; body: unknown; headers?: Record<string, string>; keys?: string[] },
): Promise<PostRate> {
  let next = 0;
  const keys = options.keys ?? [];
  const result = await autocannon({
    url,
    method: 'POST',
    connections: options.connections,
    amount: options.amount,
    timeout: 120,
    body: JSON.stringify(options.body),
    headers: { 'content-type': 'application/json', ...options.headers },
    requests: [
      {
        setupRequest: (request) =>
          keys.length === 0
            ? request
            : { ...request, headers: { ...request.headers, authorization: `Bearer ${keys[next++ % keys.length]}` } },
      },
    ],
  });
  const seconds = (result.finish.getTime() - result.start.getTime()) / 1000;
  return { perSecond: result['2xx'] / seconds, failed: result.non2xx + result.errors + result.timeouts };
}

/** The paid call at `connections`: `amount` calls spread over `keys`' workspaces. */
export function paidCallsPerSecond(rde: RunningRde, keys: string[], connections: number, amount: number) {
  return postsPerSecond(`${rde.baseUrl}/tools/pplgraph/search`, { connections, amount, body: PAID_CALL_BODY, keys });
}

/** The same people search straight to the sandbox's PeopleGraph, as the catalog sends it. */
export function vendorCallsPerSecond(rde: RunningRde, connections: number, amount: number) {
  return postsPerSecond(`${rde.sandboxUrl}${VENDOR_SEARCH.path}`, {
    connections,
    amount,
    body: PAID_CALL_BODY.payload,
    headers: VENDOR_SEARCH.headers,
  });
}

/** A bare fastify answering `GET /` with `{hello: 'world'}`, in its own process like the gateway. */
export async function startFastifyHello(): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const source = `require('fastify')().get('/', async () => ({ hello: 'world' })).listen({ port: ${port}, host: '127.0.0.1' })`;
  return startScripts([source], `http://127.0.0.1:${port}/`);
}

/** Node scripts, each in its own process with this folder's packages, once `url` answers; stop() ends them. */
async function startScripts(sources: string[], url: string): Promise<{ url: string; stop(): void }> {
  const children: ChildProcess[] = sources.map((source) =>
    spawn(process.execPath, ['-e', source], { cwd: __dirname, stdio: 'ignore' }),
  );
  await waitUntil(async () => (await fetch(url)).ok, 10_000, 50);
  return { url, stop: () => children.forEach((child) => child.kill('SIGTERM')) };
}

/** Bytes in, the same bytes out: the echo's messages cross unencoded, so only the hop is timed. */
const ECHO_DEFINITION = `const same = (bytes) => bytes;
const definition = { echo: { path: '/bench.Echo/Echo', requestStream: false, responseStream: false,
  requestSerialize: same, requestDeserialize: same, responseSerialize: same, responseDeserialize: same } };`;

/**
 * The distributed hop's floor: a bare fastify whose `GET /` makes one grpc-js unary call to an echo
 * server in a third process, then answers `{hello: 'world'}`. The gateway's authenticated read is
 * this hop plus bearer resolution, the keys RPC's own work and its store read.
 */
export async function startGrpcEchoBehindFastify(): Promise<{ url: string; stop(): void }> {
  const [grpcPort, httpPort] = [await freePort(), await freePort()];
  const server = `const grpc = require('@grpc/grpc-js'); ${ECHO_DEFINITION}
const server = new grpc.Server();
server.addService(definition, { echo: (call, callback) => callback(null, call.request) });
server.bindAsync('127.0.0.1:${grpcPort}', grpc.ServerCredentials.createInsecure(), () => undefined);`;
  const front = `const grpc = require('@grpc/grpc-js'); ${ECHO_DEFINITION}
const Echo = grpc.makeGenericClientConstructor(definition, 'Echo');
const client = new Echo('127.0.0.1:${grpcPort}', grpc.credentials.createInsecure());
const request = Buffer.from('{"workspace_id":"ws_bench"}');
const echo = () => new Promise((resolve, reject) => client.echo(request, (error, reply) => (error ? reject(error) : resolve(reply))));
require('fastify')().get('/', async () => (await echo(), { hello: 'world' })).listen({ port: ${httpPort}, host: '127.0.0.1' });`;
  return startScripts([server, front], `http://127.0.0.1:${httpPort}/`);
}

/** A stage of an enrichment chain: the vendor endpoint its work is counted on, and what one item takes. */
export interface ChainStage {
  readonly name: string;
  readonly vendor: string;
  readonly endpoint: string;
  /** Requests an answered item costs against the vendor's rate (an async lookup: its submit and a poll). */
  readonly requestsPerItem?: number;
  /** What one item waits for once the vendor took it: a sync answer, or a job's run. */
  readonly takes: 'latency_ms' | 'job_duration_ms';
}

/** The `email_enrichment` chain as the sandbox counts it: MailFinder (sync), BulkMail (batch jobs), Reachout (a job a row). */
export const EMAIL_CHAIN: readonly ChainStage[] = [
  { name: 'mailfinder', vendor: 'mailfinder', endpoint: 'find', takes: 'latency_ms' },
  { name: 'bulkmail batches', vendor: 'bulkmail', endpoint: 'submit', takes: 'job_duration_ms' },
  { name: 'reachout lookups', vendor: 'reachout', endpoint: 'submit', requestsPerItem: 2, takes: 'job_duration_ms' },
];

interface VendorKnobs {
  latency_ms: { median: number };
  job_duration_ms: { median: number };
  rate_limit: { per_second: number; burst: number } | null;
}

export interface ProviderBound {
  /** Per stage: items the vendor answered, and the seconds it needs alone (beyond burst ÷ rate, plus one item's wait). */
  readonly stages: { name: string; items: number; seconds: number }[];
  /** The stages pipelined: the longest stage's rate-bound time plus one item's wait at every stage. */
  readonly seconds: number;
  /** The stages one after the other (the sum the benches used to print; it overstates the bound). */
  readonly serialSeconds: number;
  /** Requests the vendors refused with 429 (not work done). */
  readonly refused: number;
}

/**
 * What the vendors alone impose on the work they answered, from the sandbox's counters and knobs.
 * A stage's vendor serves its requests beyond the token bucket's burst at its rate, and its last
 * item then waits one median latency (or job duration). The stages pipeline: a row goes to the
 * next stage while the vendor before still answers other rows, so no stage waits for the previous
 * one to finish. The work cannot end before the slowest stage has served its last request, and
 * that request's item must still have come through every earlier stage (at least one wait each)
 * and go through every later one: max over stages of its rate-bound time, plus one wait per stage.
 * Medians, not minima: a lower bound in the sense the benches compare against.
 */
export async function providerBound(rde: RunningRde, chain: readonly ChainStage[]): Promise<ProviderBound> {
  const counters = await sandboxCounters(rde);
  const { knobs } = (await (await fetch(`${rde.sandboxUrl}/_admin/knobs`)).json()) as {
    knobs: Record<string, VendorKnobs>;
  };
  const worked = chain.flatMap((stage) => {
    const count = counters[stage.vendor]?.[stage.endpoint];
    const items = count ? count.requests - (count.statuses['429'] ?? 0) : 0;
    if (items === 0) return [];
    const vendor = knobs[stage.vendor]!;
    const limit = vendor.rate_limit;
    const rateBound = limit ? Math.max(0, items * (stage.requestsPerItem ?? 1) - limit.burst) / limit.per_second : 0;
    return [{ name: stage.name, items, rateBound, wait: vendor[stage.takes].median / 1000 }];
  });
  const waits = worked.reduce((sum, stage) => sum + stage.wait, 0);
  const refused = Object.values(counters)
    .flatMap((endpoints) => Object.values(endpoints))
    .reduce((sum, endpoint) => sum + (endpoint.statuses['429'] ?? 0), 0);
  return {
    stages: worked.map(({ name, items, rateBound, wait }) => ({ name, items, seconds: rateBound + wait })),
    seconds: Math.max(0, ...worked.map((stage) => stage.rateBound)) + waits,
    serialSeconds: worked.reduce((sum, stage) => sum + stage.rateBound + stage.wait, 0),
    refused,
  };
}

/** The bound's lines: the work answered, the bound beside the old serial sum, and the wall time's ratio to both. */
export function describeProviderBound(bound: ProviderBound, wallSeconds: number): string[] {
  const items = bound.stages.map((stage) => `${stage.name} ${stage.items}`).join(', ');
  const alone = bound.stages.map((stage) => `${stage.name} ${stage.seconds.toFixed(1)} s`).join(', ');
  return [
    `answered vendor work: ${items}; refused with 429: ${bound.refused}`,
    `provider-bound limit ${bound.seconds.toFixed(1)} s, stages pipelined (each alone: ${alone})`,
    `wall time ${wallSeconds.toFixed(1)} s, ratio ${(wallSeconds / bound.seconds).toFixed(2)}x (goal <= 1.2x); against the old serial sum ${bound.serialSeconds.toFixed(1)} s: ${(wallSeconds / bound.serialSeconds).toFixed(2)}x`,
  ];
}
