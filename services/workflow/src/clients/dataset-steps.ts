import { publicJson, publicSchemas, type dataset } from '@rde/proto';
import { errors, type ServiceClient } from '@rde/platform';
import { StepInputCheck } from '../domain/step-input';
import { bytes, free, type BuiltinCall, type StepCall } from './step-call';

type Datasets = ServiceClient<typeof dataset.DatasetServiceService>;

const { limit: rowsLimit, offset: rowsOffset } = publicSchemas.datasetRowsQuery.properties;

/**
 * The free dataset steps (decision 0088) over the dataset service's contract, each answering what
 * its REST route answers. The caller is the run's workspace, so another workspace's dataset is not
 * found. A created dataset's id is derived from the step item's call id, so a repeat of the step
 * (a redelivered run) finds the dataset the first call made instead of making a second.
 */
export function datasetCalls(datasets: Datasets): Record<string, BuiltinCall> {
  const calls: Record<string, BuiltinCall> = {
    'dataset.create': async ({ input, callId, caller }: StepCall) => {
      const created = await datasets.rpc.createDataset(
        {
          datasetId: createdDatasetIdOf(callId),
          name: typeof input.name === 'string' ? input.name : '',
          rowsJson: bytes(input.rows),
          sessionId: typeof input.session_id === 'string' ? input.session_id : '',
          source: '',
          runId: '',
          copyOfDatasetId: '',
        },
        { caller },
      );
      return free({ ...publicJson.datasetRecord(created.dataset!), sample: JSON.parse(textOf(created.sampleJson)) });
    },
    'dataset.append': async ({ input, caller }: StepCall) => {
      const datasetId = String(input.dataset_id);
      const offset =
        typeof input.offset === 'number'
          ? input.offset
          : Number((await datasets.rpc.getDataset({ datasetId }, { caller })).dataset!.rowCount);
      const appended = await datasets.rpc.appendRows({ datasetId, offset, rowsJson: bytes(input.rows) }, { caller });
      return free(publicJson.datasetRecord(appended.dataset!));
    },
    'dataset.rows': async ({ input, caller }: StepCall) => {
      const page = {
        offset: typeof input.offset === 'number' ? input.offset : rowsOffset.default,
        limit: typeof input.limit === 'number' ? input.limit : rowsLimit.default,
      };
      const read = await datasets.rpc.getRows({ datasetId: String(input.dataset_id), page }, { caller });
      return free({ rows: JSON.parse(textOf(read.rowsJson)), ...read.page });
    },
  };
  const check = new StepInputCheck();
  // A reference resolves only when the run calls: the resolved `with` is checked as lint checks literals.
  return Object.fromEntries(
    Object.entries(calls).map(([name, call]) => [
      name,
      async (step: StepCall) => {
        const details = check.details(step.uses.kind === 'builtin' ? step.uses.schema : {}, step.input);
        if (!details) return call(step);
        const detail = `with of ${name} resolved to an invalid call: ${JSON.stringify(details)}`;
        throw errors.badRequest({ error: 'invalid_payload', detail });
      },
    ]),
  );
}

/** The `ds_` id of the dataset a `dataset.create` call makes: its call id's digits. */
export function createdDatasetIdOf(callId: string): string {
  return `ds_${callId.slice('run_'.length)}`;
}

const textOf = (json: Uint8Array) => Buffer.from(json).toString('utf8');
