import { RdeError, type Caller, type Logger } from '@rde/platform';
import type { CatalogClient } from './index';
import type { MethodContract, ProviderCall, ProviderPort, ProviderResult } from './providers';

/**
 * The vendors through the catalog: InvokeProvider calls a method without billing (the waterfall
 * bills), GetMethod gives its price and, for an asynchronous vendor, its job shape.
 */
export class CatalogProviders implements ProviderPort {
  private readonly contracts = new Map<string, Promise<MethodContract>>();

  constructor(
    private readonly catalog: CatalogClient,
    private readonly logger: Logger,
    /** Deadline of one invocation: the catalog's vendor timeout plus margin. */
    private readonly deadlineMs: number,
  ) {}

  async invoke(call: ProviderCall, caller: Caller): Promise<ProviderResult> {
    try {
      const response = await this.catalog.invokeProvider(
        {
          tool: call.tool,
          method: call.method,
          payloadJson: Buffer.from(JSON.stringify(call.payload)),
          invocationId: call.invocationId ?? '',
        },
        { caller, deadlineMs: this.deadlineMs },
      );
      const failure = response.failure;
      if (failure) {
        return {
          ok: false,
          reason: failure.reason,
          message: failure.message,
          ...(Number(failure.retryAfterMs) > 0 && { retryAfterMs: Number(failure.retryAfterMs) }),
        };
      }
      return { ok: true, answer: JSON.parse(response.resultJson.toString('utf8')) as Record<string, unknown> };
    } catch (error) {
      // The catalog itself failed (or refused the input): for the row it is a vendor that did not answer.
      this.logger.warn({ err: error, tool: call.tool, method: call.method }, 'provider invocation failed');
      const reason = error instanceof RdeError ? `invoke_${error.httpStatus}` : 'invoke_failed';
      return { ok: false, reason, message: String(error) };
    }
  }

  contract(tool: string, method: string): Promise<MethodContract> {
    const key = `${tool}.${method}`;
    let contract = this.contracts.get(key);
    if (!contract) {
      contract = this.load(tool, method);
      // A failed look-up is not cached: the next call asks again.
      contract.catch(() => this.contracts.delete(key));
      this.contracts.set(key, contract);
    }
    return contract;
  }

  private async load(tool: string, method: string): Promise<MethodContract> {
    const response = await this.catalog.getMethod({ tool, method });
    const declared = response.method!;
    const { job } = declared;
    const rate = declared.rate && { perSecond: declared.rate.perSecond, burst: declared.rate.burst };
    return { price: Number(declared.cost?.amount?.millicredits ?? 0), ...(job && { job }), ...(rate && { rate }) };
  }
}
