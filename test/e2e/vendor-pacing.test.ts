import { api, sandboxCounters, type EndpointCount } from './api';
import { mode, startRde, type RunningRde } from './harness';
import { ENRICH_VENDORS, enrichmentSupport } from '../spec/enrichment-support';

jest.setTimeout(240_000);

/**
 * Decision 0079: every waterfall replica paces its calls to a vendor together, at the rate the
 * vendor publishes, so a dataset run worked by two replicas is almost never refused (429) by a
 * rate-limited vendor: the sandbox's own counters say what the vendors saw.
 */
describe(`vendor pacing shared by the waterfall replicas (${mode})`, () => {
  let rde: RunningRde;
  const { peopleRows, endedRun } = enrichmentSupport(() => rde);

  beforeAll(async () => {
    // Vendors answer at once but keep their published rate limits (the default), and runs are cut
    // into chunks of 10 rows, so both replicas work the run at the same time.
    rde = await startRde({
      RDE_SANDBOX_LATENCY_SCALE: '0',
      RDE_ENRICH_RUN_CHUNK_ROWS: '10',
      RDE_DEV_GRANT_CREDITS: '10000',
    });
  });

  afterAll(async () => {
    await rde?.stop();
  });

  /** Requests and 429 refusals the enrichment vendors received, summed over their endpoints. */
  const vendorTraffic = async () => {
    const counters = await sandboxCounters(rde);
    const endpoints: EndpointCount[] = ENRICH_VENDORS.flatMap((vendor) => Object.values(counters[vendor] ?? {}));
    return {
      requests: endpoints.reduce((sum, endpoint) => sum + endpoint.requests, 0),
      refused: endpoints.reduce((sum, endpoint) => sum + (endpoint.statuses['429'] ?? 0), 0),
    };
  };

  test('a 200-row run: fewer than 1 % of the vendor requests are refused, and every row is enriched', async () => {
    const before = await vendorTraffic();
    const started = await api(rde, 'POST', '/enrich/run', {
      body: { input_rows: await peopleRows(3000, 200), steps: ['email_enrichment'], detach: true },
    });
    expect(started.status).toBe(200);

    const run = await endedRun(rde.ownerKey, started.body._meta.run_id, 200_000);

    expect(run._meta).toMatchObject({ status: 'completed', progress: { done: 200, total: 200 } });
    const after = await vendorTraffic();
    const requests = after.requests - before.requests;
    const refused = after.refused - before.refused;
    console.log(`vendor pacing (${mode}): ${requests} vendor requests, ${refused} refused (429)`);
    expect(requests).toBeGreaterThanOrEqual(200);
    expect(refused / requests).toBeLessThan(0.01);
  });
});
