import { grpcModule } from '@rde/platform';
import { dataset, protoFileOf } from '@rde/proto';
import { datasetConfig } from './config';
import { Datasets } from './datasets';
import { datasetHandlers } from './grpc/handlers';
import { DatasetRepository } from './store/datasets';
import { RowRepository } from './store/rows';

/** Datasets, their rows and CSV export. Nothing here is imported by other services: they call its RPCs. */
export const datasetModule = grpcModule({
  name: 'dataset',
  defaultPort: 7105,
  dependencies: [],
  async build(ctx) {
    const config = datasetConfig(ctx.env);
    const store = await ctx.backends.documentStore('rde_dataset');
    const datasets = new Datasets(
      await DatasetRepository.open(store),
      await RowRepository.open(store),
      ctx.backends.clock,
      config.RDE_DATASET_WRITE_BATCH,
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
