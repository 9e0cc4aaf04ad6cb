import { Histogram, processMetric } from '@rde/platform';
import type { JsonObject } from '../domain/parameters';
import { isPresentAt } from '../domain/rows';
import { ProviderFailure, type ProviderCaller } from './caller';
import type { MethodDeclaration, ProviderDeclaration } from './declaration';

const vendorCallDuration = processMetric(
  'rde_vendor_call_duration_seconds',
  () =>
    new Histogram({
      name: 'rde_vendor_call_duration_seconds',
      help: 'Vendor calls by provider, method and outcome: hit, miss, answered (no hit rule), or the failure reason (timeout, rate_limited…)',
      labelNames: ['provider', 'method', 'outcome'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30],
    }),
);

/** Observes every vendor call (count, latency, hits and errors per provider) around the real caller. */
export class MeteredProviders implements ProviderCaller {
  constructor(private readonly inner: ProviderCaller) {}

  async call(provider: ProviderDeclaration, method: MethodDeclaration, values: JsonObject): Promise<JsonObject> {
    const done = vendorCallDuration.startTimer({ provider: provider.tool, method: method.name });
    try {
      const answer = await this.inner.call(provider, method, values);
      done({ outcome: outcomeOf(method, answer) });
      return answer;
    } catch (error) {
      done({ outcome: error instanceof ProviderFailure ? error.reason : 'error' });
      throw error;
    }
  }
}

/** A method with a hit rule answers hit or miss; one billed otherwise (per record, per call) just answered. */
function outcomeOf(method: MethodDeclaration, answer: JsonObject): string {
  if (method.hitPath === undefined) return 'answered';
  return isPresentAt(answer, method.hitPath) ? 'hit' : 'miss';
}
