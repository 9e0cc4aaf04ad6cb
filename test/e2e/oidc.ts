import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort, waitUntil } from './harness';

const SCRIPT = path.resolve(__dirname, '../support/oidc-provider.mjs');

export interface OidcClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface RunningOidcProvider {
  readonly issuer: string;
  stop(): Promise<void>;
}

/** The issuer URL a provider will have once started on this port (RDE needs it first). */
export async function reserveIssuer(): Promise<{ port: number; issuer: string }> {
  const port = await freePort();
  return { port, issuer: `http://127.0.0.1:${port}` };
}

/** Starts the local OpenID provider (test/support/oidc-provider.mjs) with these clients. */
export async function startOidcProvider(port: number, clients: OidcClient[]): Promise<RunningOidcProvider> {
  const child: ChildProcess = spawn(process.execPath, [SCRIPT], {
    env: { ...process.env, OIDC_PORT: String(port), OIDC_CLIENTS: JSON.stringify(clients) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const issuer = `http://127.0.0.1:${port}`;
  await waitUntil(async () => (await fetch(`${issuer}/.well-known/openid-configuration`)).ok, 30_000);
  return {
    issuer,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Follows redirects through the provider the way a browser would (keeping the provider's
 * cookies), signing in as `email`, until a redirect leaves for `returnTo`; returns that URL.
 */
export async function consentAs(authorizationUrl: string, email: string, returnTo: string): Promise<string> {
  const jar = new Map<string, string>();
  const first = new URL(authorizationUrl);
  first.searchParams.set('login_hint', email);
  let url = first.href;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(returnTo)) return url;
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`the provider stopped at ${url}: ${response.status} ${await response.text()}`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects at the provider');
}
