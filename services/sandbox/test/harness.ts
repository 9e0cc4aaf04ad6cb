import type { Backends, ModuleContext, RunningModule } from '@rde/platform';
import pino from 'pino';
import { sandboxModule, vendorDescriptors, type VendorDescriptor } from '../src';

export interface VendorResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A running sandbox plus typed helpers to call its vendors (with their keys) and its admin API. */
export interface Sandbox {
  readonly url: string;
  call<T = any>(
    vendor: string,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<VendorResponse<T>>;
  admin<T = any>(method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown): Promise<VendorResponse<T>>;
  stop(): Promise<void>;
}

export function descriptor(vendor: string): VendorDescriptor {
  const found = vendorDescriptors.find((d) => d.id === vendor);
  if (!found) throw new Error(`no vendor ${vendor}`);
  return found;
}

export function authHeaders(vendor: string): Record<string, string> {
  const { auth } = descriptor(vendor);
  return { [auth.header]: auth.scheme ? `${auth.scheme} ${auth.key}` : auth.key };
}

/** Starts the module as `rde start` would, vendors answering at once and unthrottled unless `env` says otherwise. */
export async function startSandbox(env: Record<string, string> = {}): Promise<Sandbox> {
  const ctx: ModuleContext = {
    env: { RDE_SANDBOX_LATENCY_SCALE: '0', RDE_SANDBOX_RATE_LIMITS: 'false', ...env },
    logger: pino({ level: 'silent' }),
    backends: {} as Backends,
    addresses: { get: () => '' },
    allInOne: true,
  };
  const running: RunningModule = await sandboxModule.start(ctx);
  const request = async (
    url: string,
    method: string,
    body: unknown,
    headers: Record<string, string>,
  ): Promise<VendorResponse> => {
    const response = await fetch(url, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
  return {
    url: running.address,
    call: (vendor, method, path, body, headers) =>
      request(`${running.address}${descriptor(vendor).prefix}${path}`, method, body, headers ?? authHeaders(vendor)),
    admin: (method, path, body) => request(`${running.address}/_admin${path}`, method, body, {}),
    stop: () => running.stop(),
  };
}

export function query(params: Record<string, string | readonly string[] | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  return `?${search}`;
}

/** Polls until `condition` holds (an outcome, not a time, is what a test waits for). */
export async function waitFor(condition: () => Promise<boolean>, attempts = 200, intervalMs = 25): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error('the condition never held');
}
