import { errors, type Handlers } from '@rde/platform';
import type { waterfall } from '@rde/proto';
import type { EnrichJobs } from '../app/jobs/enrich-jobs';
import type { Enrichment } from '../app/enrich/enrichment';
import type { EnrichMeta } from '../app/enrich/enrich-result';
import type { EnrichRuns } from '../app/runs/enrich-runs';
import { credits, meteringView } from './metering-view';

export interface EnrichHandlerDependencies {
  readonly enrichment: Enrichment;
  readonly enrichJobs: EnrichJobs;
  readonly enrichRuns: EnrichRuns;
}

type EnrichHandlers = Pick<
  Handlers<typeof waterfall.WaterfallServiceService>,
  'enrich' | 'getEnrichJob' | 'wakeProviderJob' | 'startEnrichRun' | 'getEnrichRun' | 'cancelEnrichRun'
>;

/** Translates the enrichment RPCs to the application, and back. */
export function enrichHandlers(deps: EnrichHandlerDependencies): EnrichHandlers {
  return {
    async enrich(request, { caller }) {
      const { result, meta } = await deps.enrichment.enrich(
        {
          capability: request.capability,
          payload: jsonField(request.payloadJson, 'payload'),
          rows: jsonField(request.rowsJson, 'rows'),
          dryRun: request.dryRun,
          callerRunId: request.runId,
        },
        caller,
      );
      return { resultJson: Buffer.from(JSON.stringify(result)), meta: metaView(meta) };
    },

    async getEnrichJob({ provider, jobId }, { caller }) {
      return { jobJson: Buffer.from(JSON.stringify(await deps.enrichJobs.get(provider, jobId, caller))) };
    },

    async wakeProviderJob({ provider, nonce }) {
      await deps.enrichJobs.wake(provider, nonce);
      return {};
    },

    async startEnrichRun({ bodyJson, runId }, { caller }) {
      const body = jsonField(bodyJson, 'body');
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw errors.validation([{ loc: ['body'], msg: 'must be object', type: 'object_type' }]);
      }
      return { runJson: json(await deps.enrichRuns.start(body as Record<string, unknown>, caller, runId)) };
    },

    async getEnrichRun({ runId }, { caller }) {
      return { runJson: json(await deps.enrichRuns.get(runId, caller)) };
    },

    async cancelEnrichRun({ runId }, { caller }) {
      return { runJson: json(await deps.enrichRuns.cancel(runId, caller)) };
    },
  };
}

/** An optional JSON field: empty bytes mean "not sent"; the shape is checked by the use case. */
function jsonField(bytes: Buffer, name: string): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw errors.badRequest({ error: 'invalid_payload', detail: `${name} is not valid JSON` });
  }
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

function metaView(meta: EnrichMeta): waterfall.EnrichMeta {
  return {
    ...meteringView(meta),
    creditsCharged: credits(meta.creditsCharged),
    status: meta.status ?? '',
    progress: meta.progress,
    pollAfterS: meta.pollAfterS,
    replayed: meta.replayed,
    pendingJobs: (meta.pendingJobs ?? []).map((job) => ({
      provider: job.provider,
      jobId: job.job_id,
      fetch: job.fetch,
    })),
    wouldCall: meta.wouldCall ?? '',
    warningsJson: meta.warnings ? Buffer.from(JSON.stringify(meta.warnings)) : Buffer.alloc(0),
  };
}
