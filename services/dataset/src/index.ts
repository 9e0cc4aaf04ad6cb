import { grpcModule } from '@rde/platform';
import { dataset, protoFileOf } from '@rde/proto';
import { datasetConfig } from './config';
import { Datasets } from './app/datasets';
import { datasetHandlers } from './grpc/handlers';
import { DatasetsRepository } from './store/datasets';
import { RowsRepository } from './store/rows';
import { UsageRepository } from './store/usage';

/** Datasets, their rows and CSV export. Nothing here is imported by other services: they call its RPCs. */
export const datasetModule = grpcModule({
  name: 'dataset',
  defaultPort: 7105,
  dependencies: [],
  async build(ctx) {
    const config = datasetConfig(ctx.env);
    const store = await ctx.backends.documentStore('rde_dataset');
    const datasets = new Datasets(
      await DatasetsRepository.open(store),
      await RowsRepository.open(store),
      await UsageRepository.open(store),
      ctx.backends.clock,
      config.RDE_DATASET_WRITE_BATCH,
      {
        datasets: config.RDE_DATASET_QUOTA_DATASETS,
        rows: config.RDE_DATASET_QUOTA_ROWS,
        bytes: config.RDE_DATASET_QUOTA_BYTES,
      },
    );
    return {
      services: [
        {
          fullName: 'rde.dataset.v1.DatasetService',
          definition: dataset.DatasetServiceService,
          handlers: datasetHandlers(datasets),
          protoFile: protoFileOf('dataset'),
        },
      ],
      healthy: async () => (await store.ping(), true),
      close: async () => undefined,
    };
  },
});
