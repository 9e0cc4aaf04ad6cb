import { grpcModule } from '@rde/platform';
import { dataset, protoFileOf } from '@rde/proto';
import { DATASET_VARIABLES, datasetConfig } from './config';
import { AppendRows } from './app/append-rows';
import { CreateDataset } from './app/create-dataset';
import type { DatasetContext } from './app/dataset-context';
import { DeleteDataset } from './app/delete-dataset';
import { ReadDatasets } from './app/read-datasets';
import { UpdateRows } from './app/update-rows';
import { datasetHandlers } from './grpc/handlers';
import { DatasetsRepository } from './store/datasets';
import { RowsRepository } from './store/rows';
import { UsageRepository } from './store/usage';

/** Datasets, their rows and CSV export. Nothing here is imported by other services: they call its RPCs. */
export const datasetModule = grpcModule({
  name: 'dataset',
  defaultPort: 7105,
  dependencies: [],
  config: DATASET_VARIABLES,
  async build(ctx) {
    const config = datasetConfig(ctx.env);
    const store = await ctx.own.documentStore();
    const context: DatasetContext = {
      datasets: await DatasetsRepository.open(store),
      rows: await RowsRepository.open(store),
      usage: await UsageRepository.open(store),
      clock: ctx.backends.clock,
      writeBatch: config.RDE_DATASET_WRITE_BATCH,
      quota: {
        datasets: config.RDE_DATASET_QUOTA_DATASETS,
        rows: config.RDE_DATASET_QUOTA_ROWS,
        bytes: config.RDE_DATASET_QUOTA_BYTES,
      },
    };
    return {
      services: [
        {
          fullName: 'rde.dataset.v1.DatasetService',
          definition: dataset.DatasetServiceService,
          handlers: datasetHandlers({
            creation: new CreateDataset(context),
            appending: new AppendRows(context),
            reading: new ReadDatasets(context),
            updating: new UpdateRows(context),
            deletion: new DeleteDataset(context),
          }),
          protoFile: protoFileOf('dataset'),
        },
      ],
      healthy: async () => (await store.ping(), true),
      close: async () => undefined,
    };
  },
});
