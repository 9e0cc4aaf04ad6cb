import { catalog } from '@rde/proto';
import { startCatalog, type CatalogUnderTest } from './support/catalog-under-test';

/** InvokeProvider: a provider call for the waterfalls, with no hold and no settlement. */
describe('catalog service: provider invocations', () => {
  let catalogUnderTest: CatalogUnderTest;

  beforeAll(async () => {
    catalogUnderTest = await startCatalog();
  });

  afterAll(() => catalogUnderTest?.stop());

  beforeEach(() => {
    catalogUnderTest.vendor.received.length = 0;
    catalogUnderTest.downstreams.holds.clear();
    catalogUnderTest.vendor.answerWith({ rows: 3 });
  });

  const invoke = (payload: unknown, invocationId = '') =>
    catalogUnderTest.client.invokeProvider({
      tool: 'pplgraph',
      method: 'search',
      payloadJson: Buffer.from(JSON.stringify(payload)),
      invocationId,
    });
  const parsed = (bytes: Buffer) => JSON.parse(bytes.toString('utf8'));

  test('answers the rows, the rows read as people and the declared cost, and holds nothing', async () => {
    const answer = await invoke({ query: { job_title: ['CTO'] }, size: 2 });
    expect(answer.failure).toBeUndefined();
    expect(parsed(answer.rowsJson)).toHaveLength(2);
    expect(parsed(answer.peopleJson)).toEqual([
      { name: 'Person 0', title: 'CTO' },
      { name: 'Person 1', title: 'CTO' },
    ]);
    // The same people, typed (decision 0076); the JSON copy above is for waterfalls of the previous version.
    expect(answer.people).toEqual([
      { name: 'Person 0', title: 'CTO' },
      { name: 'Person 1', title: 'CTO' },
    ]);
    expect(answer.cost).toEqual({ millicredits: 2_000 });
    expect(catalogUnderTest.downstreams.holds.size).toBe(0);
    expect(catalogUnderTest.settlements).toEqual([]);
  });

  test('a vendor failure is a classified answer, not an RPC error', async () => {
    catalogUnderTest.vendor.answerWith({ status: 503 });
    const failed = await invoke({ query: { job_title: ['CTO'] } });
    expect(failed.failure).toEqual({ reason: 'http_503', message: expect.stringContaining('503'), retryAfterMs: 0 });
    catalogUnderTest.vendor.answerWith({ status: 429 });
    // A rate-limited call carries the vendor's Retry-After, so the waterfall waits it out.
    expect((await invoke({ query: { job_title: ['CTO'] } })).failure).toMatchObject({
      reason: 'rate_limited',
      retryAfterMs: 2_000,
    });
    catalogUnderTest.vendor.answerWith({ status: 400 });
    expect((await invoke({ query: { job_title: ['CTO'] } })).failure?.reason).toBe('rejected');
  });

  test('a payload the method does not take is refused before the vendor is called', async () => {
    await expect(invoke({ query: { job_title: ['CTO'] }, colour: 'red' })).rejects.toMatchObject({
      httpStatus: 400,
      body: expect.objectContaining({ error: 'invalid_payload', unknown: ['colour'] }),
    });
    expect(catalogUnderTest.vendor.received).toHaveLength(0);
  });

  test('a retry of a finished invocation answers the stored answer without calling the vendor again', async () => {
    const first = await invoke({ query: { job_title: ['CTO'] } }, 'run_x:0:pplgraph.search:0');
    catalogUnderTest.vendor.answerWith({ rows: 7 });
    const retried = await invoke({ query: { job_title: ['CTO'] } }, 'run_x:0:pplgraph.search:0');
    expect(catalog.InvokeProviderResponse.toJSON(retried)).toEqual(catalog.InvokeProviderResponse.toJSON(first));
    expect(catalogUnderTest.vendor.received).toHaveLength(1);
  });
});
