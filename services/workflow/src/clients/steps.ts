import { createClient, type AddressBook, type Caller } from '@rde/platform';
import { catalog, publicJson, waterfall, type common } from '@rde/proto';
import type { Uses } from '../domain/uses';

/** One paid or free call a step made: its answer as the REST route shows it, and its money. */
export interface StepCallResult {
  readonly output: Record<string, unknown>;
  readonly chargedMillicredits: number;
  readonly wouldChargeMillicredits: number;
}

/** A step's call: what it uses, its resolved `with`, the run's mode and the call's deterministic id. */
export interface StepCall {
  readonly uses: Extract<Uses, { kind: 'builtin' | 'method' }>;
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly dryRun: boolean;
  readonly callId: string;
  readonly caller: Caller;
}

export interface StepCalls {
  call(step: StepCall): Promise<StepCallResult>;
  close(): void;
}

const bytes = (value: unknown) => Buffer.from(value === undefined ? '' : JSON.stringify(value));
const parsed = (json: Uint8Array) => JSON.parse(Buffer.from(json).toString('utf8') || '{}') as Record<string, unknown>;
const milli = (amount: common.Credits | undefined) => amount?.millicredits ?? 0;

/**
 * A step's calls over the services' own gRPC contracts (never their HTTP routes): the catalog's
 * CallTool for `<tool>.<method>`, and the waterfall's search, enrichment and qualify. Paid calls
 * carry the step item's deterministic id, so the call repeated by a replica taking the run over
 * joins the first one and is charged once.
 */
export function stepCalls(addresses: AddressBook, deadlineMs: number): StepCalls {
  const tools = createClient(catalog.CatalogServiceService, { address: addresses.get('catalog'), deadlineMs });
  const walks = createClient(waterfall.WaterfallServiceService, { address: addresses.get('waterfall'), deadlineMs });
  const byName: Record<string, (step: StepCall) => Promise<StepCallResult>> = {
    'search.people_search': async ({ input, dryRun, caller, callId }) => {
      const { resultJson, meta } = await walks.rpc.searchPeople(
        { bodyJson: bytes({ ...input, ...(dryRun && { dry_run: true }) }), runId: callId },
        { caller },
      );
      return answer(parsed(resultJson), publicJson.searchMeta(meta!), milli(meta?.charged), meta?.wouldChargeCredits);
    },
    qualify: async ({ input, caller }) => {
      const qualified = await walks.rpc.qualify(
        {
          jobSpec: String(input.job_spec ?? ''),
          candidatesJson: bytes(input.candidates ?? []),
          minScoreJson: input.min_score === undefined ? Buffer.alloc(0) : bytes(input.min_score),
          allowThinProfiles: input.allow_thin_profiles === true,
          runAsync: false,
        },
        { caller },
      );
      return { output: publicJson.qualified(qualified, false), chargedMillicredits: 0, wouldChargeMillicredits: 0 };
    },
  };
  return {
    async call(step) {
      if (step.uses.kind === 'method') {
        const { resultJson, meta } = await tools.rpc.callTool(
          {
            tool: step.uses.tool,
            method: step.uses.method,
            payloadJson: bytes(step.input),
            argsJson: Buffer.alloc(0),
            kwargsJson: Buffer.alloc(0),
            dryRun: step.dryRun,
            runId: step.callId,
          },
          { caller: step.caller },
        );
        const charged = milli(meta?.creditsCharged);
        return answer(parsed(resultJson), publicJson.callMeta(meta!), charged, meta?.wouldChargeCredits);
      }
      const named = byName[step.name];
      if (named) return named(step);
      const { resultJson, meta } = await walks.rpc.enrich(
        {
          capability: step.name.slice('enrich.'.length),
          payloadJson: bytes(step.input.payload),
          rowsJson: bytes(step.input.rows),
          dryRun: step.dryRun,
          runId: step.callId,
        },
        { caller: step.caller },
      );
      return answer(parsed(resultJson), publicJson.enrichMeta(meta!), milli(meta?.charged), meta?.wouldChargeCredits);
    },
    close() {
      tools.close();
      walks.close();
    },
  };
}

function answer(
  result: Record<string, unknown>,
  meta: Record<string, unknown>,
  chargedMillicredits: number,
  wouldCharge: common.Credits | undefined,
): StepCallResult {
  return { output: { ...result, _meta: meta }, chargedMillicredits, wouldChargeMillicredits: milli(wouldCharge) };
}
