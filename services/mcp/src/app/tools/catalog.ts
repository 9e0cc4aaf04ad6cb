import { newRunId } from '@rde/platform';
import { publicJson, publicRoutes, publicSchemas } from '@rde/proto';
import { jsonBytes, parseJson } from '../../domain/json';
import { readEnrichJob } from './enrich';
import { CALL_DEADLINE_MS, object, type McpTool } from './tool';

const { callBody, methodParams } = publicSchemas;
const { ROUTES } = publicRoutes;

/** The catalog's tools and methods: list, describe and call (spec "Tools"). */
export const CATALOG_TOOLS: readonly McpTool[] = [
  {
    name: 'list_tools',
    title: 'List data-provider tools',
    description: `The catalog of data-provider tools and their methods with costs (GET ${ROUTES.tools}).`,
    inputSchema: object({ filter: { type: 'string', description: 'substring of a tool name or description' } }),
    spends: false,
    async run(clients, caller, args) {
      const filter = (args.filter as string | undefined) ?? '';
      const { tools } = await clients.catalog.listTools({ filter }, { caller });
      return publicJson.toolListing(tools, filter);
    },
  },
  {
    name: 'describe_tool_method',
    title: 'Describe a tool method',
    description: `The contract of one method: inputs, payload schema and cost (GET ${ROUTES.toolMethod}).`,
    inputSchema: methodParams,
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
      `Calls one data-provider method and charges its cost, exactly as POST ${ROUTES.toolMethod} ` +
      '(tool and method are the path, the rest its body). dry_run: true prices the call without calling the ' +
      'vendor or charging. The resume of a still_enriching step ({tool: "enrich_jobs", method: <provider>, ' +
      'payload: {job_id}}) reads the job, free.',
    // The REST route's path parameters and body, as one argument object.
    inputSchema: {
      ...callBody,
      properties: { ...methodParams.properties, ...callBody.properties },
      required: methodParams.required,
    },
    spends: true,
    async run(clients, caller, args, callId) {
      if (args.tool === publicSchemas.RESUME_TOOL) return readEnrichJob(clients, caller, args);
      const sessionId = args.session_id as string | undefined;
      const { resultJson, meta } = await clients.catalog.callTool(
        {
          tool: args.tool as string,
          method: args.method as string,
          payloadJson: jsonBytes(args.payload),
          argsJson: jsonBytes(args.args),
          kwargsJson: jsonBytes(args.kwargs),
          dryRun: args.dry_run === true,
          // Minted here, so the client's retry on another catalog replica repeats this call, not a new one;
          // the keyed call's own id when it has one, so the retry after the gateway died joins it too.
          runId: callId || newRunId(),
        },
        { caller: sessionId ? { ...caller, sessionId } : caller, deadlineMs: CALL_DEADLINE_MS },
      );
      return { ...(parseJson(resultJson, {}) as object), _meta: publicJson.callMeta(meta!) };
    },
  },
];
