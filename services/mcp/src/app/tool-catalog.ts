import { newRunId, type Caller } from '@rde/platform';
import { publicJson } from '@rde/proto';
import type { ToolClients } from '../clients';
import { jsonBytes, parseJson } from '../domain/json';

/** One MCP tool: its contract (JSON Schema) and the RPC it maps onto. Built once, at module scope. */
export interface McpTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  /** true when the tool may spend credits (MCP's `readOnlyHint: false`). */
  readonly spends: boolean;
  run(clients: ToolClients, caller: Caller, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** A paid call waits for a vendor: the same longer deadline the REST route gives it. */
const CALL_DEADLINE_MS = 60_000;
/** A search walks up to four vendors: the REST search route's deadline. */
const SEARCH_DEADLINE_MS = 90_000;

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const text = (description: string) => ({ type: 'string', minLength: 1, description });
const page = (maximum: number, fallback: number) => ({
  offset: { type: 'integer', minimum: 0, default: 0 },
  limit: { type: 'integer', minimum: 1, maximum, default: fallback },
});

export const MCP_TOOLS: readonly McpTool[] = [
  {
    name: 'list_tools',
    title: 'List data-provider tools',
    description: 'The catalog of data-provider tools and their methods with costs (GET /api/v2/tools).',
    inputSchema: object({ filter: { type: 'string', description: 'substring of a tool name or description' } }),
    spends: false,
    async run(clients, caller, args) {
      const filter = (args.filter as string | undefined) ?? '';
      const { tools } = await clients.catalog.listTools({ filter }, { caller });
      return {
        count: tools.length,
        tools: tools.map((tool) => tool.name),
        results: tools.map((tool) => ({
          ...publicJson.toolHeader(tool),
          methods: tool.methods.map(publicJson.methodSummary),
        })),
        filter: filter || null,
      };
    },
  },
  {
    name: 'describe_tool_method',
    title: 'Describe a tool method',
    description: 'The contract of one method: inputs, payload schema and cost (GET /api/v2/tools/{tool}/{method}).',
    inputSchema: object({ tool: text('tool name'), method: text('method name') }, ['tool', 'method']),
    spends: false,
    async run(clients, caller, args) {
      const { tool, method } = await clients.catalog.getMethod(
        { tool: args.tool as string, method: args.method as string },
        { caller },
      );
      return publicJson.methodContract(tool!, method!);
    },
  },
  {
    name: 'call_tool_method',
    title: 'Call a tool method',
    description:
      'Calls one data-provider method and charges its cost, exactly as POST /api/v2/tools/{tool}/{method}. ' +
      'dry_run: true prices the call without calling the vendor or charging.',
    inputSchema: object(
      {
        tool: text('tool name'),
        method: text('method name'),
        payload: { type: 'object', description: 'the method payload (see describe_tool_method)' },
        args: { type: 'array', description: 'positional arguments' },
        kwargs: { type: 'object', description: 'keyword arguments' },
        dry_run: { type: 'boolean', default: false },
      },
      ['tool', 'method'],
    ),
    spends: true,
    async run(clients, caller, args) {
      const { resultJson, meta } = await clients.catalog.callTool(
        {
          tool: args.tool as string,
          method: args.method as string,
          payloadJson: jsonBytes(args.payload),
          argsJson: jsonBytes(args.args),
          kwargsJson: jsonBytes(args.kwargs),
          dryRun: args.dry_run === true,
          // Minted here, so the client's retry on another catalog replica repeats this call, not a new one.
          runId: newRunId(),
        },
        { caller, deadlineMs: CALL_DEADLINE_MS },
      );
      return { ...(parseJson(resultJson, {}) as object), _meta: publicJson.callMeta(meta!) };
    },
  },
  {
    name: 'search_people',
    title: 'Search people',
    description:
      'People search across the provider waterfall, charged as POST /api/v2/search/people_search: the same ' +
      'body (query or flat filters such as titles and company_names, limit, providers, dry_run, preview).',
    inputSchema: {
      type: 'object',
      description: 'the POST /api/v2/search/people_search body; the waterfall validates it',
      additionalProperties: true,
    },
    spends: true,
    async run(clients, caller, args) {
      const { resultJson, meta } = await clients.waterfall.searchPeople(
        { bodyJson: jsonBytes(args) },
        { caller, deadlineMs: SEARCH_DEADLINE_MS },
      );
      return { ...(parseJson(resultJson, {}) as object), _meta: publicJson.searchMeta(meta!) };
    },
  },
  {
    name: 'get_balance',
    title: 'Credit balance',
    description: 'The workspace credit balance, reserved and available credits (GET /api/v2/billing/balance).',
    inputSchema: object({}),
    spends: false,
    async run(clients, caller) {
      const { account } = await clients.billing.getBalance({ recent: 0 }, { caller });
      const [balance, reserved, available] = [account?.balance, account?.reserved, account?.available].map(
        (amount) => publicJson.credits(amount) ?? 0,
      );
      return { balance, reserved, available, _meta: { balance: available, reserved, settled: !account?.openHolds } };
    },
  },
  {
    name: 'list_datasets',
    title: 'List datasets',
    description: "The workspace's datasets, newest first (GET /api/v2/datasets).",
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
    description: 'One dataset by id (GET /api/v2/datasets/{id}).',
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
    description: 'A page of rows in order (GET /api/v2/datasets/{id}/rows).',
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
