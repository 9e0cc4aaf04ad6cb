import type { FastifyInstance } from 'fastify';
import { newRunId, type Caller } from '@rde/platform';
import { publicJson, publicRoutes } from '@rde/proto';
import { errorResponses } from '../../contract';
import type { GatewayDependencies } from '../../dependencies';
import { ENRICH_CAPABILITIES } from '../enrich/schemas';
import {
  callBody,
  callResult,
  contractParams,
  listQuery,
  methodContract,
  methodParams,
  toolDetail,
  toolList,
  toolParams,
} from './schemas';

const { ROUTES, routerPath } = publicRoutes;
/** The waterfalls sold as tools, each with its own static POST /tools/{waterfall} route. */
const WATERFALL_TOOLS = ['people_search', ...ENRICH_CAPABILITIES];
/**
 * A paid call waits for a vendor (the catalog gives it up to RDE_PROVIDER_TIMEOUT_MS, 20 s by
 * default) besides Reserve and CreateDataset: it gets more than the default RPC deadline, so the
 * client is not told 504 about a call that then completes and is charged.
 */
const CALL_DEADLINE_MS = 60_000;

/** The catalog of data-provider tools and single tool calls (spec "Tools"). */
export async function toolsRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { catalog: catalogClient } = deps.clients;

  app.get<{ Querystring: { filter?: string } }>(
    ROUTES.tools,
    { schema: { querystring: listQuery, response: { 200: toolList } } },
    async (request) => {
      const filter = request.query.filter ?? '';
      const { tools } = await catalogClient.listTools({ filter }, { caller: request.caller });
      return publicJson.toolListing(tools, filter);
    },
  );

  const describe = async (name: string, caller: Caller) => {
    const { tool, resolvedMethod } = await catalogClient.getTool({ tool: name }, { caller });
    if (resolvedMethod) return { ...publicJson.methodContract(tool!, tool!.methods[0]), resolved_from: name };
    return {
      ...publicJson.toolHeader(tool!),
      methods: tool!.methods.map((method) => publicJson.methodContract(tool!, method)),
      ...(tool!.chain.length > 0 && { steps: await chainSteps(tool!.chain, caller) }),
    };
  };

  app.get<{ Params: { tool: string } }>(
    '/tools/:tool',
    {
      schema: {
        params: toolParams,
        response: { 200: { anyOf: [methodContract, toolDetail] } },
      },
    },
    async (request) => describe(request.params.tool, request.caller),
  );

  // A waterfall's static POST path (POST /tools/{waterfall}) shadows the parameter route above for
  // every method (decision 0009), so its description is registered at the same static path.
  for (const waterfall of WATERFALL_TOOLS) {
    app.get(`/tools/${waterfall}`, { schema: { response: { 200: toolDetail } } }, async (request) =>
      describe(waterfall, request.caller),
    );
  }

  app.get<{ Params: { tool: string; method: string } }>(
    routerPath(ROUTES.toolMethod),
    { schema: { params: contractParams, response: { 200: methodContract } } },
    async (request) => {
      const { tool, method } = await catalogClient.getMethod(request.params, { caller: request.caller });
      return publicJson.methodContract(tool!, method!);
    },
  );

  app.post<{
    Params: { tool: string; method: string };
    Body: { payload?: object; args?: unknown[]; kwargs?: object; dry_run?: boolean; session_id?: string };
  }>(
    routerPath(ROUTES.toolMethod),
    {
      config: { idempotency: 'header' },
      schema: {
        params: methodParams,
        body: callBody,
        // 402: the balance cannot cover the call; 502: the provider failed.
        response: { 200: callResult, ...errorResponses(402, 502) },
      },
    },
    async (request) => {
      const { payload, args, kwargs, dry_run: dryRun = false, session_id: sessionId } = request.body ?? {};
      const caller = sessionId ? { ...request.caller, sessionId } : request.caller;
      const { resultJson, meta } = await catalogClient.callTool(
        {
          tool: request.params.tool,
          method: request.params.method,
          payloadJson: jsonBytes(payload),
          argsJson: jsonBytes(args),
          kwargsJson: jsonBytes(kwargs),
          dryRun,
          // Minted here, so the client's retry on another catalog replica repeats this call, not a new one;
          // derived from the Idempotency-Key when one is sent, so the client's own retry joins it too.
          runId: request.idempotentRunId ?? newRunId(),
        },
        { caller, deadlineMs: CALL_DEADLINE_MS },
      );
      return { ...(JSON.parse(resultJson.toString('utf8')) as object), _meta: publicJson.callMeta(meta!) };
    },
  );

  /** A waterfall's steps, each with the provider method's description and price (what a hit costs). */
  function chainSteps(chain: string[], caller: Caller) {
    return Promise.all(
      chain.map(async (step) => {
        const [tool, method] = step.split('.') as [string, string];
        const found = await catalogClient.getMethod({ tool, method }, { caller });
        return { step, ...publicJson.methodSummary(found.method!) };
      }),
    );
  }
}

function jsonBytes(value: unknown): Buffer {
  return value === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(value));
}
