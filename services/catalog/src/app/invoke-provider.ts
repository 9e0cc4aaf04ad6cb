import type { KeyValue, PersonRecord } from '@rde/platform';
import { catalog } from '@rde/proto';
import type { Catalog } from '../domain/catalog';
import type { JsonObject, ParameterResolver } from '../domain/parameters';
import { peopleOf } from '../domain/people';
import { actualCost } from '../domain/pricing';
import { isPresentAt, rowsAt } from '../domain/rows';
import { ProviderFailure, type ProviderCaller } from '../providers/caller';

export interface InvokeRequest {
  readonly tool: string;
  readonly method: string;
  readonly payload: JsonObject;
  readonly invocationId: string;
}

export interface InvocationDependencies {
  readonly catalog: Catalog;
  readonly resolver: ParameterResolver;
  readonly providers: ProviderCaller;
  readonly keyValue: KeyValue;
  /** How long a finished invocation's answer is kept for a retry of the same invocation id. */
  readonly replayTtlMs: number;
}

/**
 * Provider calls for the waterfalls: the same declarations, validation, wire protocol and pricing
 * as a tool call, without a hold or a settlement (the caller bills). The answer carries the rows,
 * the rows read as people, the declared cost of this answer and a classified failure.
 */
export class ProviderInvocations {
  constructor(private readonly deps: InvocationDependencies) {}

  async invoke(request: InvokeRequest): Promise<catalog.InvokeProviderResponse> {
    const replayKey = request.invocationId ? `invocation:${request.invocationId}` : undefined;
    const stored = replayKey && (await this.deps.keyValue.get(replayKey));
    if (stored) return catalog.InvokeProviderResponse.decode(Buffer.from(stored, 'base64'));
    const answer = await this.call(request);
    // Only a real answer is kept: a failed invocation may be retried against the vendor.
    if (replayKey && !answer.failure) {
      const bytes = catalog.InvokeProviderResponse.encode(answer).finish();
      await this.deps.keyValue.set(replayKey, Buffer.from(bytes).toString('base64'), { ttlMs: this.deps.replayTtlMs });
    }
    return answer;
  }

  private async call(request: InvokeRequest): Promise<catalog.InvokeProviderResponse> {
    const { provider, method } = this.deps.catalog.method(request.tool, request.method);
    const { values } = this.deps.resolver.resolve(method, { payload: request.payload });
    const started = performance.now();
    let answer: JsonObject;
    try {
      answer = await this.deps.providers.call(provider, method, values);
    } catch (error) {
      if (!(error instanceof ProviderFailure)) throw error;
      return {
        ...EMPTY,
        elapsedMs: Math.round(performance.now() - started),
        failure: { reason: error.reason, message: error.message, retryAfterMs: error.retryAfterMs ?? 0 },
      };
    }
    const elapsedMs = Math.round(performance.now() - started);
    const rows = method.rows ? (rowsAt(answer, method.rows.path) ?? []) : undefined;
    const hit = method.hitPath !== undefined && isPresentAt(answer, method.hitPath);
    const people = rows && method.person ? peopleOf(rows, method.person) : undefined;
    return {
      resultJson: json(answer),
      rowsJson: rows ? json(rows) : Buffer.alloc(0),
      // The JSON copy is for waterfalls of the previous version during a rolling deploy (decision 0076).
      peopleJson: people ? json(people) : Buffer.alloc(0),
      people: (people ?? []).map(personMessageOf),
      cost: { millicredits: actualCost(method, values, { rowCount: rows?.length ?? 0, hit }) },
      hit,
      elapsedMs,
      failure: undefined,
    };
  }
}

const EMPTY = {
  resultJson: Buffer.alloc(0),
  rowsJson: Buffer.alloc(0),
  peopleJson: Buffer.alloc(0),
  people: [],
  hit: false,
};

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

/** A person as InvokeProvider's typed message (the camel-cased fields renamed); unset fields stay absent. */
function personMessageOf({ company_domain, linkedin_url, work_history, ...named }: PersonRecord): catalog.Person {
  return {
    ...named,
    companyDomain: company_domain,
    linkedinUrl: linkedin_url,
    workHistory: work_history && { jobs: work_history.map((job) => ({ ...job })) },
  };
}
