import {
  createBackends,
  createClient,
  createLogger,
  EnvAddressBook,
  ManualClock,
  type Backends,
  type Caller,
  type Collection,
  type DocumentStore,
  type PromiseClient,
} from '@rde/platform';
import { dataset } from '@rde/proto';
import { datasetModule } from '../src';

export type DatasetClient = PromiseClient<typeof dataset.DatasetServiceService>;

export interface StartOptions {
  /** Stands in for the service's store, e.g. to make a write fail midway. */
  wrapStore?: (store: DocumentStore) => DocumentStore;
  env?: NodeJS.ProcessEnv;
}

/** The dataset module on a loopback port over memory backends, and a real gRPC client of it. */
export async function startDatasetService(options: StartOptions = {}) {
  const clock = new ManualClock();
  const memory = createBackends({ kind: 'memory', clock });
  const store = () => memory.documentStore('rde_dataset');
  const backends: Backends = {
    clock,
    documentStore: async (database) => (options.wrapStore ?? ((s) => s))(await memory.documentStore(database)),
    bus: (clientId) => memory.bus(clientId),
    keyValue: (namespace) => memory.keyValue(namespace),
    close: () => memory.close(),
  };
  const served = await serveDatasets(backends, options.env);
  return {
    clock,
    client: served.client,
    /** How many row documents the store holds, whatever their dataset. */
    storedRows: async () => (await store()).collection('rows').countDocuments(),
    stop: async () => {
      await served.stop();
      await memory.close();
    },
  };
}

/** The dataset module on a loopback port over `backends`, and a real gRPC client of it (tests, bench). */
export async function serveDatasets(backends: Backends, env: NodeJS.ProcessEnv = {}, deadlineMs = 10_000) {
  const running = await datasetModule.start({
    env: { RDE_DATASET_PORT: '0', ...env },
    logger: createLogger('dataset-test', 'warn'),
    backends,
    addresses: new EnvAddressBook({}),
    allInOne: true,
  });
  const client = createClient(dataset.DatasetServiceService, {
    address: running.address,
    deadlineMs,
  });
  return {
    client: client.rpc,
    stop: async () => {
      client.close();
      await running.stop();
    },
  };
}

export function callerIn(workspaceId: string, overrides: Partial<Caller> = {}): Caller {
  return {
    workspaceId,
    userId: `usr_${workspaceId}`,
    role: 'owner',
    keyId: '',
    sessionId: '',
    requestId: '',
    ...overrides,
  };
}

export const rowsJson = (rows: unknown) => Buffer.from(JSON.stringify(rows));

export const parseJson = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString('utf8'));

/** A create request with nothing but rows. */
export function creation(
  rows: unknown,
  fields: Partial<dataset.CreateDatasetRequest> = {},
): dataset.CreateDatasetRequest {
  return {
    datasetId: '',
    name: '',
    rowsJson: rowsJson(rows),
    source: '',
    runId: '',
    sessionId: '',
    copyOfDatasetId: '',
    ...fields,
  };
}

export async function csvOf(
  client: DatasetClient,
  datasetId: string,
  caller: Caller,
): Promise<{ text: string; chunks: number[] }> {
  const chunks: Buffer[] = [];
  for await (const { chunk } of client.exportCsv({ datasetId }, { caller })) chunks.push(Buffer.from(chunk));
  return { text: Buffer.concat(chunks).toString('utf8'), chunks: chunks.map((chunk) => chunk.length) };
}

/** Makes the store refuse every bulk row insert after the first `allowed` (or `failAfter`), until healed. */
export function flakyRows(allowed: number) {
  const state = { allowed };
  const wrapStore = (store: DocumentStore): DocumentStore => ({
    ping: () => store.ping(),
    close: () => store.close(),
    collection: <T extends { _id: string }>(name: string) => {
      const inner = store.collection<T>(name) as Collection<T>;
      if (name !== 'rows') return inner;
      return Object.assign(Object.create(inner) as Collection<T>, {
        insertMany: async (docs: T[]) => {
          if (state.allowed-- <= 0) throw new Error('store went away');
          return inner.insertMany(docs);
        },
      });
    },
  });
  return {
    wrapStore,
    heal: () => (state.allowed = Infinity),
    failAfter: (allowed: number) => (state.allowed = allowed),
  };
}
