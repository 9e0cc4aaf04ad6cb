import { api, sandboxKnobs } from './api';
import { mode, startRde, waitUntil, type RunningRde } from './harness';

jest.setTimeout(120_000);

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [, name, labelText = '', value] = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line)!;
      const labels = Object.fromEntries([...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
      return { name: name!, labels, value: Number(value) };
    });
}

async function scrapeProcess(rde: RunningRde, name: string): Promise<Sample[]> {
  const response = await fetch(rde.metricsUrlOf(name));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return parseExposition(await response.text());
}

/** The samples of every replica of a module, as Prometheus would sum them over its pods. */
async function scrape(rde: RunningRde, module: string): Promise<Sample[]> {
  return (await Promise.all(rde.replicasOf(module).map((name) => scrapeProcess(rde, name)))).flat();
}

/** The sum of a metric's samples whose labels match (a RegExp label matches by test). */
function total(samples: Sample[], name: string, labels: Record<string, string | RegExp> = {}): number | undefined {
  const matching = samples.filter(
    (s) =>
      s.name === name &&
      Object.entries(labels).every(([k, v]) => (typeof v === 'string' ? s.labels[k] === v : v.test(s.labels[k] ?? ''))),
  );
  return matching.length === 0 ? undefined : matching.reduce((sum, s) => sum + s.value, 0);
}

const SEARCH = '/tools/pplgraph/search';
const PAID = { payload: { query: { job_title: ['Software Engineer'] }, size: 2 } };

describe(`metrics (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde();
    // A slow vendor keeps a paid call's hold open long enough to be seen from outside. The latency
    // is fixed: a scaled log-normal one has a tail past the catalog's 20 s provider timeout (a 502).
    await sandboxKnobs(rde, 'pplgraph', { latency_ms: { median: 2_000, p95: 2_000 } });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const settled = async () => (await api(rde, 'GET', '/billing/balance')).body._meta.settled === true;

  test('after paid calls each process reports RED per route and method, vendor calls, holds, outbox and consumer lag', async () => {
    const first = api(rde, 'POST', SEARCH, { body: PAID });
    // While the call is in flight its credit hold is open, and billing says so.
    let duringCall: Sample[] = [];
    await waitUntil(async () => {
      duringCall = await scrape(rde, 'billing');
      return (total(duringCall, 'rde_billing_open_holds') ?? 0) >= 1;
    }, 30_000);
    // Every replica reads the same holds from the store: each reports the one age.
    const ages = duringCall.filter((s) => s.name === 'rde_billing_oldest_hold_age_seconds').map((s) => s.value);
    expect(ages.length).toBe(rde.replicasOf('billing').length);
    for (const age of ages) {
      expect(age).toBeGreaterThanOrEqual(0);
      expect(age).toBeLessThan(60);
    }
    expect((await first).status).toBe(200);
    expect((await api(rde, 'POST', SEARCH, { body: PAID })).status).toBe(200);
    await waitUntil(settled, 30_000);

    const gateway = await scrape(rde, 'gateway');
    const route = { route: /\/tools\/:tool\/:method$/, method: 'POST' };
    expect(total(gateway, 'rde_http_server_duration_seconds_count', { ...route, status: '200' })).toBe(2);
    expect(total(gateway, 'rde_http_server_duration_seconds_sum', route)).toBeGreaterThan(0);

    const catalog = await scrape(rde, 'catalog');
    const callTool = { service: 'rde.catalog.v1.CatalogService', method: 'callTool', code: 'OK' };
    expect(total(catalog, 'rde_grpc_server_duration_seconds_count', callTool)).toBe(2);
    const vendor = { provider: 'pplgraph', method: 'search' };
    expect(total(catalog, 'rde_vendor_call_duration_seconds_count', vendor)).toBe(2);
    expect(total(catalog, 'rde_vendor_call_duration_seconds_count', { ...vendor, outcome: 'answered' })).toBe(2);
    expect(total(catalog, 'rde_outbox_pending_events')).toBeGreaterThanOrEqual(0);

    // Once billing settled both calls nothing waits: no open hold, an empty outbox, no lag.
    await waitUntil(async () => {
      const [billing, relayed] = [await scrape(rde, 'billing'), await scrape(rde, 'catalog')];
      return (
        total(billing, 'rde_billing_open_holds') === 0 &&
        total(billing, 'rde_billing_oldest_hold_age_seconds') === 0 &&
        total(relayed, 'rde_outbox_pending_events') === 0 &&
        total(relayed, 'rde_outbox_oldest_event_age_seconds') === 0
      );
    }, 30_000);
    const billing = await scrape(rde, 'billing');
    expect(
      total(billing, 'rde_grpc_server_duration_seconds_count', { method: 'reserve', code: 'OK' }),
    ).toBeGreaterThanOrEqual(2);
    if (mode === 'distributed') {
      // Billing's settlement consumer read both settlements from Kafka and is at the end of its partitions.
      expect(total(billing, 'rde_kafka_consumer_lag', { topic: /billing\.settlements$/, group: /billing$/ })).toBe(0);
    }
    expect(total(billing, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});
