import { createClient, type AddressBook } from '@rde/platform';
import { catalog, dataset, publicJson, waterfall, type common } from '@rde/proto';
import { ENRICH_RUN } from '../domain/uses';
import { datasetCalls } from './dataset-steps';
import { enrichRunCall, type RunWaiting } from './enrich-run-step';
import { bytes, free, milli, parsed, type BuiltinCall, type StepCall, type StepCallResult } from './step-call';

export type { StepCall, StepCallResult } from './step-call';

export interface StepCalls {
  call(step: StepCall): Promise<StepCallResult>;
  close(): void;
}

/** How steps reach their services: each call's deadline, and how `enrich.run` waits for its run. */
export interface StepCallOptions extends RunWaiting {
  readonly deadlineMs: number;
}

/**
 * A step's calls over the services' own gRPC contracts (never their HTTP routes): the catalog's
 * CallTool for `<tool>.<method>`, the waterfall's search, enrichment, dataset runs and qualify, and
 * the dataset service's datasets. Paid calls carry the step item's deterministic id, so the call
 * repeated by a replica taking the run over joins the first one and is charged once.
 */
export function stepCalls(addresses: AddressBook, options: StepCallOptions): StepCalls {
  const { deadlineMs } = options;
  const tools = createClient(catalog.CatalogServiceService, { address: addresses.get('catalog'), deadlineMs });
  const walks = createClient(waterfall.WaterfallServiceService, { address: addresses.get('waterfall'), deadlineMs });
  const datasets = createClient(dataset.DatasetServiceService, { address: addresses.get('dataset'), deadlineMs });
  const byName: Record<string, BuiltinCall> = {
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
      return free(publicJson.qualified(qualified, false));
    },
    [ENRICH_RUN]: enrichRunCall(walks, options),
    ...datasetCalls(datasets),
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
      datasets.close();
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
