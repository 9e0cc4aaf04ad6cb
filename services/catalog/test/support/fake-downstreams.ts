import { createLogger, GrpcServer, httpError, type Handlers } from '@rde/platform';
import { billing, dataset, protoFileOf } from '@rde/proto';

/**
 * Billing and dataset as the catalog sees them over gRPC: Reserve holds credits against a balance
 * (402 when it cannot), CreateDataset keeps what it was sent. Their own behaviour is their
 * services' tests' business; here they only answer the way their contracts say.
 */
export interface FakeDownstreams {
  readonly billingAddress: string;
  readonly datasetAddress: string;
  readonly holds: Map<string, number>;
  readonly datasets: dataset.CreateDatasetRequest[];
  setBalance(millicredits: number): void;
  failDatasets(fail: boolean): void;
  close(): Promise<void>;
}

export async function startFakeDownstreams(): Promise<FakeDownstreams> {
  const logger = createLogger('fake-downstreams', 'silent');
  const holds = new Map<string, number>();
  const datasets: dataset.CreateDatasetRequest[] = [];
  let balance = 100_000;
  let datasetsFail = false;
  const reserved = () => [...holds.values()].reduce((sum, amount) => sum + amount, 0);
  const account = () => ({
    workspaceId: 'ws_test',
    balance: { millicredits: balance },
    reserved: { millicredits: reserved() },
    available: { millicredits: balance - reserved() },
    openHolds: holds.size,
  });

  const billingHandlers = {
    async reserve(request: billing.ReserveRequest) {
      const amount = request.amount?.millicredits ?? 0;
      if (!holds.has(request.holdId) && balance - reserved() < amount) {
        throw httpError(402, {
          error: 'insufficient_credits',
          detail: 'not enough credits',
          required: amount / 1000,
          available: (balance - reserved()) / 1000,
        });
      }
      holds.set(request.holdId, amount);
      return { holdId: request.holdId, account: account(), held: request.amount, capRefusalJson: Buffer.alloc(0) };
    },
  } as unknown as Handlers<typeof billing.BillingServiceService>;

  const datasetHandlers = {
    async createDataset(request: dataset.CreateDatasetRequest) {
      if (datasetsFail) throw httpError(503, { detail: 'dataset store unavailable' });
      datasets.push(request);
      const rows = JSON.parse(request.rowsJson.toString('utf8')) as Record<string, unknown>[];
      return {
        dataset: {
          id: request.datasetId,
          workspaceId: 'ws_test',
          name: request.name,
          columns: Object.keys(rows[0] ?? {}),
          rowCount: rows.length,
          sessionId: request.sessionId,
          createdByUserId: 'usr_test',
          createdAtMs: Date.parse('2026-01-01T00:00:00Z'),
          source: request.source,
          runId: request.runId,
          enrichStatus: 'none',
        },
        sampleJson: Buffer.from(JSON.stringify(rows.slice(0, 5))),
      };
    },
  } as unknown as Handlers<typeof dataset.DatasetServiceService>;

  const server = (
    name: string,
    service: { fullName: string; definition: object; handlers: object; protoFile: string },
  ) => new GrpcServer({ name, host: '127.0.0.1', port: 0, logger, drainMs: 0, services: [service as never] });
  const billingServer = server('billing', {
    fullName: 'rde.billing.v1.BillingService',
    definition: billing.BillingServiceService,
    handlers: billingHandlers,
    protoFile: protoFileOf('billing'),
  });
  const datasetServer = server('dataset', {
    fullName: 'rde.dataset.v1.DatasetService',
    definition: dataset.DatasetServiceService,
    handlers: datasetHandlers,
    protoFile: protoFileOf('dataset'),
  });
  return {
    billingAddress: await billingServer.listen(),
    datasetAddress: await datasetServer.listen(),
    holds,
    datasets,
    setBalance: (millicredits) => {
      balance = millicredits;
    },
    failDatasets: (fail) => {
      datasetsFail = fail;
    },
    close: async () => {
      await Promise.all([billingServer.stop(), datasetServer.stop()]);
    },
  };
}
