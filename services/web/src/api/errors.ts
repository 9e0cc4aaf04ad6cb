/**
 * What an error response says, in the words of the spec's error bodies: `detail` as a sentence, a
 * `{reason, message}` object, or a list of validation problems; never the raw JSON.
 */
export interface ApiProblem {
  readonly message: string;
  /** The HTTP status; absent when RDE could not be reached. */
  readonly status?: number;
  /** Where to buy credits, when a 402 names it. */
  readonly checkoutUrl?: string;
}

type Detail = string | { message?: string; msg?: string; reason?: string; checkout_url?: string } | Detail[];

export function problemOf(status: number, body: unknown): ApiProblem {
  const { detail, message, error, checkout_url } = (body ?? {}) as {
    detail?: Detail;
    message?: string;
    error?: string;
    checkout_url?: string;
  };
  const said = sentence(detail) ?? message ?? error;
  // A tool call's 402 names the checkout in `detail`, an enrichment run's beside it.
  const checkoutUrl =
    (!Array.isArray(detail) && typeof detail === 'object' ? detail.checkout_url : undefined) ?? checkout_url;
  return { message: said ?? `The request failed (HTTP ${status}).`, status, checkoutUrl };
}

function sentence(detail: Detail | undefined): string | undefined {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map(sentence).filter(Boolean).join(' ') || undefined;
  return detail?.message ?? detail?.msg ?? detail?.reason;
}
