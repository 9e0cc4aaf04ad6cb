import { waitUntil, type RunningRde } from './harness';

/** Where a request goes and whose key it carries by default: a started RDE, or any running gateway. */
export type Gateway = Pick<RunningRde, 'baseUrl' | 'ownerKey'>;

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Where keys come from: the end of every "not authenticated" answer (decision 0052). */
const WHERE_KEYS_COME_FROM =
  'Create API keys on the dashboard’s API keys page or with POST /api/v2/keys; each is shown once, when created.';

/** The 401 bodies a client sees, by what was wrong with its credential. */
export const NOT_AUTHENTICATED = {
  missing: {
    detail: `Not authenticated: no API key was sent. Send one as \`Authorization: Bearer <key>\`. ${WHERE_KEYS_COME_FROM}`,
  },
  not_bearer: {
    detail: `The Authorization header must read \`Bearer <key>\`: the Bearer scheme, a space, then the key. ${WHERE_KEYS_COME_FROM}`,
  },
  empty_bearer: {
    detail: `The Authorization header has no key after \`Bearer\`: send \`Authorization: Bearer <key>\`. ${WHERE_KEYS_COME_FROM}`,
  },
  api_key_header: {
    detail: `API keys are read from the Authorization header, not X-Api-Key: send \`Authorization: Bearer <key>\`. ${WHERE_KEYS_COME_FROM}`,
  },
  refused: {
    detail: `Invalid API key: it is unknown or has been revoked. Check that it was copied whole, or use another. ${WHERE_KEYS_COME_FROM}`,
  },
  session_ended: {
    detail: `Your sign-in session has ended: sign in again, or send an API key as \`Authorization: Bearer <key>\`. ${WHERE_KEYS_COME_FROM}`,
  },
} as const;

/** Calls the public interface as a client would: JSON in, JSON (or text) out. */
export async function api<T = any>(
  rde: Gateway,
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const key = options.key === undefined ? rde.ownerKey : options.key;
  const headers: Record<string, string> = { ...options.headers };
  if (key) headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${rde.baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('json');
  return { status: response.status, headers: response.headers, body: isJson && text ? JSON.parse(text) : text, text };
}

/** Waits until the workspace of `key` has no open hold: its charges are on the ledger by then. */
export async function untilSettled(rde: Gateway, key: string, timeoutMs = 30_000, intervalMs?: number): Promise<void> {
  await waitUntil(
    async () => (await api(rde, 'GET', '/billing/balance', { key })).body._meta.settled === true,
    timeoutMs,
    intervalMs,
  );
}

/** Requests one sandbox vendor endpoint received, and its answers by HTTP status. */
export interface EndpointCount {
  requests: number;
  statuses: Record<string, number>;
}

/** Changes a sandbox vendor's knobs (hit rate, latency, faults, job duration…) through its admin API. */
export async function sandboxKnobs(rde: RunningRde, vendor: string, patch: object): Promise<void> {
  const response = await fetch(`${rde.sandboxUrl}/_admin/knobs/${vendor}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(patch),
  });
  if (response.status !== 200) throw new Error(`knobs ${vendor}: ${response.status} ${await response.text()}`);
}

/**
 * Reads the sandbox vendors' request counters (admin API, `{counters: {vendor: {endpoint: …}}}`),
 * to prove a provider was or was not called.
 */
export async function sandboxCounters(rde: RunningRde): Promise<Record<string, Record<string, EndpointCount>>> {
  const response = await fetch(`${rde.sandboxUrl}/_admin/counters`);
  return ((await response.json()) as { counters: Record<string, Record<string, EndpointCount>> }).counters;
}
