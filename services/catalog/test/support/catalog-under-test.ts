import {
  createBackends,
  createClient,
  createLogger,
  EnvAddressBook,
  ManualClock,
  type Backends,
  type ServiceClient,
} from '@rde/platform';
import { billingEvents, catalog, topics } from '@rde/proto';
import { catalogModule } from '../../src';
import { startFakeDownstreams, type FakeDownstreams } from './fake-downstreams';
import { FAKE_PPLGRAPH_KEY, startFakePplgraph, type FakePplgraph } from './fake-pplgraph';

/** The catalog module started as the binary starts it, on memory backends, with its surroundings. */
export interface CatalogUnderTest {
  readonly client: ServiceClient<typeof catalog.CatalogServiceService>['rpc'];
  readonly backends: Backends;
  readonly downstreams: FakeDownstreams;
  readonly vendor: FakePplgraph;
  /** Every settlement the catalog published on `billing.settlements`, decoded. */
  readonly settlements: billingEvents.Settlement[];
  stop(): Promise<void>;
}

export async function startCatalog(): Promise<CatalogUnderTest> {
  const backends = createBackends({ kind: 'memory', clock: new ManualClock() });
  const downstreams = await startFakeDownstreams();
  const vendor = await startFakePplgraph();
  const addresses = new EnvAddressBook(
    {},
    new Map([
      ['billing', downstreams.billingAddress],
      ['dataset', downstreams.datasetAddress],
    ]),
  );
  const running = await catalogModule.start({
    env: {
      RDE_CATALOG_PORT: '0',
      // PeopleGraph configured as a real vendor would be: its own base URL and key, no sandbox.
      RDE_PPLGRAPH_BASE_URL: `${vendor.url}/pplgraph`,
      RDE_PPLGRAPH_API_KEY: FAKE_PPLGRAPH_KEY,
      RDE_PROVIDER_TIMEOUT_MS: '300',
      RDE_CATALOG_OUTBOX_POLL_MS: '60000',
    },
    logger: createLogger('catalog-test', 'silent'),
    backends,
    addresses,
    allInOne: true,
  });
  const client = createClient(catalog.CatalogServiceService, {
    address: running.address,
    deadlineMs: 5_000,
  });
  const settlements: billingEvents.Settlement[] = [];
  const bus = await backends.bus('test');
  await bus.subscribe({ group: 'test', topic: topics.SETTLEMENTS }, async (message) => {
    settlements.push(billingEvents.Settlement.decode(message.value));
  });
  return {
    client: client.rpc,
    backends,
    downstreams,
    vendor,
    settlements,
    async stop() {
      client.close();
      await running.stop();
      await vendor.close();
      await downstreams.close();
      await backends.close();
    },
  };
}
