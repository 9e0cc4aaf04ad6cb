import type { JsonObject } from '../domain/parameters';
import type { MethodDeclaration, ProviderDeclaration } from './declaration';

/**
 * The vendor did not answer usefully: unreachable, timed out, rate-limited, refused our
 * credentials, failed (5xx), refused the request as invalid, or sent something that is not its
 * documented shape. Nothing is charged.
 */
export class ProviderFailure extends Error {
  constructor(
    /**
     * A short machine-readable reason: `timeout`, `unreachable`, `rate_limited`,
     * `credentials_refused`, `rejected` (the vendor found the request invalid), `http_<status>`,
     * `bad_response`.
     */
    readonly reason: string,
    message: string,
    /** A rate-limited call: how long the vendor asked to wait (its Retry-After). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderFailure';
  }
}

export interface ProviderCaller {
  /** The vendor's answer, a JSON object; a failure rejects with ProviderFailure. */
  call(provider: ProviderDeclaration, method: MethodDeclaration, values: JsonObject): Promise<JsonObject>;
}
