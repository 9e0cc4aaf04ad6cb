import { errors, httpError, RdeError } from '@rde/platform';
import { qualifiedName, type ResolvedMethod } from './catalog';
import { ProviderFailure } from '../providers/caller';

/**
 * What the client is told when a call could not finish; nothing was charged. A vendor refusing the
 * request as invalid is the client's 400; any other vendor failure is a 502; our own a 503.
 */
export function publicFailure(target: ResolvedMethod, error: unknown, runId?: string): RdeError {
  const name = qualifiedName(target);
  const common = {
    tool: target.provider.tool,
    method: target.method.name,
    ...(runId && { run_id: runId }),
    credits_charged: 0,
  };
  if (error instanceof ProviderFailure) {
    if (error.reason === 'rejected')
      return errors.badRequest({ error: 'provider_rejected', detail: error.message, ...common });
    return httpError(502, {
      error: 'provider_failed',
      reason: error.reason,
      detail: `${name} failed: ${error.message}`,
      ...common,
    });
  }
  const detail = error instanceof RdeError ? error.message : 'the call could not be completed';
  return httpError(503, { error: 'call_failed', detail: `${name}: ${detail}; nothing was charged`, ...common });
}

/** A call of an asynchronous vendor's job method: those are reached through the enrichment waterfalls only. */
export class JobMethodCall extends Error {
  constructor(readonly target: ResolvedMethod) {
    super(`${qualifiedName(target)} is a provider job method`);
  }
}
