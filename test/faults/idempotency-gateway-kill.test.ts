import { api, type ApiResponse } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { enrichmentSupport } from '../spec/enrichment-support';

jest.setTimeout(180_000);

/** How long a dead gateway's in-flight marker outlives it here (production: 10 s). */
const LEASE_MS = 1500;
/** The vendor's answer time: the kill lands while the call waits for it. */
const VENDOR_LATENCY_MS = 4000;

/**
 * Two gateway replicas (decision 0070): the one holding a keyed, slow paid tool call is SIGKILLed
 * while the vendor is still answering; the client retries on the other with the same key. Once the
 * dead gateway's lease lapses, the retry joins the same run (its run id is derived from workspace,
 * key and request): one charge, and every later retry answers the same. Distributed mode only.
 */
const describeDistributed = mode === 'distributed' ? describe : describe.skip;

describeDistributed('fault: the gateway holding a keyed paid call dies; the retry on the other joins it', () => {
  let rde: RunningRde;
  /** The deployment as the helpers reach it: through the surviving gateway once the first is dead. */
  let live: RunningRde;
  const { workspace, person, knobs, calls, settled, charges } = enrichmentSupport(() => live);

  beforeAll(async () => {
    rde = await startRde(
      { RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false', RDE_IDEMPOTENCY_LEASE_MS: String(LEASE_MS) },
      mode,
      { gateways: 2 },
    );
    live = rde;
  });

  afterAll(async () => {
    await rde?.stop();
  });

  test('one charge, and the retry and every later one answer the same', async () => {
    const key = await workspace();
    await knobs('mailfinder', {
      hit_rate_multiplier: 50,
      latency_ms: { median: VENDOR_LATENCY_MS, p95: VENDOR_LATENCY_MS },
    });
    const subject = await person(29_900);
    const request = {
      key,
      headers: { 'idempotency-key': `gateway-kill-${Date.now()}` },
      body: { payload: { first_name: subject.firstName, last_name: subject.lastName, domain: subject.company.domain } },
    };
    const [first, second] = rde
      .replicasOf('gateway')
      .map((gateway) => ({ baseUrl: rde.baseUrlOf(gateway), ownerKey: key }));
    const vendorCalls = async () => (await calls())['mailfinder.find'] ?? 0;
    const before = await vendorCalls();

    const dying = api(first!, 'POST', '/tools/mailfinder/find', request).catch((error: unknown) => error);
    await waitUntil(async () => (await vendorCalls()) > before, 30_000, 50);
    await rde.stopModule('gateway', 'SIGKILL');
    live = { ...rde, baseUrl: second!.baseUrl };
    // The client's connection died with the gateway: it never saw an answer.
    expect(String(await dying)).toContain('fetch failed');

    // While the dead gateway's lease stands the key is in use (409, Retry-After); then the retry runs.
    let answer: ApiResponse | undefined;
    await waitUntil(
      async () => {
        answer = await api(second!, 'POST', '/tools/mailfinder/find', request);
        return answer.status !== 409;
      },
      60_000,
      250,
    );
    expect(answer!.status).toBe(200);
    expect(answer!.body.data.email).toBe(subject.workEmail);
    const { credits_charged: charged, run_id: runId } = answer!.body._meta;
    expect(charged).toBeGreaterThan(0);

    // The first attempt's run finished too (its hold is released): both were one run, charged once.
    expect(await settled(key)).toMatchObject({ balance: 100 - charged, reserved: 0 });
    expect(await charges(key)).toEqual([
      expect.objectContaining({ id: expect.stringMatching(`^${runId}:`), amount: charged }),
    ]);

    const later = await api(second!, 'POST', '/tools/mailfinder/find', request);
    expect(later.text).toBe(answer!.text);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
  });
});
