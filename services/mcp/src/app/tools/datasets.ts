import { publicJson, publicRoutes } from '@rde/proto';
import { parseJson } from '../../domain/json';
import { object, text, type McpTool } from './tool';

const { ROUTES } = publicRoutes;

const page = (maximum: number, fallback: number) => ({
  offset: { type: 'integer', minimum: 0, default: 0 },
  limit: { type: 'integer', minimum: 1, maximum, default: fallback },
});

/** Dataset reads (spec "Datasets"): the search and enrichment results a run persisted. */
export const DATASET_TOOLS: readonly McpTool[] = [
  {
    name: 'list_datasets',
    title: 'List datasets',
    description: `The workspace's datasets, newest first (GET ${ROUTES.datasets}).`,
    inputSchema: object({ session_id: { type: 'string' }, ...page(100, 10) }),
    spends: false,
    async run(clients, caller, args) {
      const listed = await clients.dataset.listDatasets(
        { sessionId: (args.session_id as string | undefined) ?? '', page: pageOf(args, 10) },
        { caller },
      );
      return { datasets: listed.datasets.map(publicJson.datasetRecord), ...listed.page };
    },
  },
  {
    name: 'get_dataset',
    title: 'Get a dataset',
    description: `One dataset by id (GET ${ROUTES.dataset}).`,
    inputSchema: object({ dataset_id: text('dataset id') }, ['dataset_id']),
    spends: false,
    async run(clients, caller, args) {
      const found = await clients.dataset.getDataset({ datasetId: args.dataset_id as string }, { caller });
      return publicJson.datasetRecord(found.dataset!);
    },
  },
  {
    name: 'get_dataset_rows',
    title: 'Read dataset rows',
    description: `A page of rows in order (GET ${ROUTES.datasetRows}).`,
    inputSchema: object({ dataset_id: text('dataset id'), ...page(1000, 50) }, ['dataset_id']),
    spends: false,
    async run(clients, caller, args) {
      const rows = await clients.dataset.getRows(
        { datasetId: args.dataset_id as string, page: pageOf(args, 50) },
        { caller },
      );
      return { rows: parseJson(rows.rowsJson, []), ...rows.page };
    },
  },
];

function pageOf(args: Record<string, unknown>, fallbackLimit: number) {
  return {
    offset: (args.offset as number | undefined) ?? 0,
    limit: (args.limit as number | undefined) ?? fallbackLimit,
  };
}
