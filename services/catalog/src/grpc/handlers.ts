import { errors, type Handlers } from '@rde/platform';
import type { catalog } from '@rde/proto';
import type { Catalog } from '../domain/catalog';
import type { JsonObject } from '../domain/parameters';
import { isObject } from '../domain/rows';
import type { ToolCalls } from '../app/tool-call';
import type { ProviderInvocations } from '../app/invoke-provider';
import { publicCallError, toolCallResultView } from './tool-call-views';
import { metaView, type CatalogViews } from './views';

export interface CatalogHandlerDependencies {
  readonly catalog: Catalog;
  readonly views: CatalogViews;
  readonly toolCalls: ToolCalls;
  readonly invocations: ProviderInvocations;
}

/** Translates the CatalogService RPCs to the catalog and the tool calls, and back. */
export function catalogHandlers(deps: CatalogHandlerDependencies): Handlers<typeof catalog.CatalogServiceService> {
  const { catalog: tools, views } = deps;
  return {
    async listTools({ filter }) {
      return {
        tools: [
          ...tools.list(filter).map(({ provider, methods }) => views.tool(provider, methods)),
          ...tools.listWaterfalls(filter).map((waterfall) => views.waterfall(waterfall)),
        ],
      };
    },

    async getTool({ tool }) {
      const waterfall = tools.findWaterfall(tool);
      if (waterfall) return { tool: views.waterfall(waterfall), resolvedMethod: '' };
      const flat = tools.has(tool) ? undefined : tools.resolveFlatName(tool);
      if (flat) {
        return { tool: views.tool(flat.provider, [flat.method]), resolvedMethod: flat.method.name };
      }
      const provider = tools.tool(tool);
      return { tool: views.tool(provider, provider.methods), resolvedMethod: '' };
    },

    async getMethod({ tool, method }) {
      const resolved = tools.method(tool, method);
      return {
        tool: views.tool(resolved.provider, []),
        method: views.method(resolved.method),
      };
    },

    async callTool(request, { caller }) {
      const call = await deps.toolCalls
        .call(
          {
            tool: request.tool,
            method: request.method,
            input: {
              payload: jsonField(request.payloadJson, 'payload', 'object') as JsonObject | undefined,
              args: jsonField(request.argsJson, 'args', 'array') as unknown[] | undefined,
              kwargs: jsonField(request.kwargsJson, 'kwargs', 'object') as JsonObject | undefined,
            },
            dryRun: request.dryRun,
            runId: request.runId,
          },
          caller,
        )
        .catch((error: unknown) => {
          throw publicCallError(error);
        });
      return { resultJson: Buffer.from(JSON.stringify(toolCallResultView(call))), meta: metaView(call.meta) };
    },

    async invokeProvider(request) {
      return deps.invocations.invoke({
        tool: request.tool,
        method: request.method,
        payload: (jsonField(request.payloadJson, 'payload', 'object') as JsonObject | undefined) ?? {},
        invocationId: request.invocationId,
      });
    },

    async getWaterfall({ tool }) {
      const waterfall = tools.findWaterfall(tool);
      if (!waterfall) throw errors.notFound(`unknown waterfall: ${tool}`);
      return {
        tool: views.waterfall(waterfall),
        steps: waterfall.chain.map((step) => views.chainStep(tools.step(step))),
      };
    },
  };
}

/**
 * An optional JSON field: empty bytes mean "not sent". Checked here too, not only by the gateway's
 * schema, because other callers (MCP, workflows) reach this RPC directly.
 */
function jsonField(bytes: Buffer, name: string, shape: 'object' | 'array'): unknown {
  if (bytes.length === 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw errors.badRequest({ error: 'invalid_payload', detail: `${name} is not valid JSON` });
  }
  if (shape === 'array' ? !Array.isArray(value) : !isObject(value)) {
    throw errors.badRequest({ error: 'invalid_payload', detail: `${name} must be a JSON ${shape}` });
  }
  return value;
}
