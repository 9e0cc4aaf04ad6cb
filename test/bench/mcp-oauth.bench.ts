/**
 * What an OAuth access token costs the MCP endpoint over an API key: the same cheap JSON-RPC `ping`
 * with each bearer, interleaved one at a time (an API key resolves from the gateway's short cache; an
 * access token is looked up by its hash in the mcp service on every request, so a revocation holds at
 * once), and the token endpoint's refresh round trip. Prints figures; asserts nothing on time.
 *
 *   pnpm run build && eval "$(deploy/backends.sh env)" && RDE_E2E_MODE=all pnpm exec tsx test/bench/mcp-oauth.bench.ts
 *
 * Needs Mailpit (the owner signs in by emailed link). BENCH_CALLS (300) requests of each kind. With
 * RDE_MCP_OAUTH_MEMBERSHIP_CACHE_MS=0 every access-token request also asks auth whether the grant's
 * user is still a member (the default trusts that answer for 2 s; decision 0029).
 */
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { approvedTokens, OAUTH, postForm, signedInOwner } from '../e2e/mcp-oauth';
import { describePercentiles, timed } from './lib';

const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function ping(rde: RunningRde, bearer: string): Promise<void> {
  const response = await fetch(`${rde.baseUrl}/api/v2/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  await response.text();
  if (response.status !== 200) throw new Error(`ping answered ${response.status}`);
}

async function main(): Promise<void> {
  console.log(`mcp-oauth bench: mode=${mode} calls=${CALLS} of each kind, one at a time, interleaved`);
  const rde = await startRde({ RDE_MCP_OAUTH_TOKEN_PER_MINUTE: String(10 * CALLS) });
  try {
    const owner = await signedInOwner(rde);
    const { clientId, token } = await approvedTokens(rde, owner.cookie);
    let tokens = token.body as { access_token: string; refresh_token: string };
    await ping(rde, owner.owner);
    await ping(rde, tokens.access_token);
    const withKey: number[] = [];
    const withToken: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      withKey.push(await timed(() => ping(rde, owner.owner)));
      withToken.push(await timed(() => ping(rde, tokens.access_token)));
    }
    const refreshes: number[] = [];
    for (let i = 0; i < Math.min(CALLS, 100); i++) {
      refreshes.push(
        await timed(async () => {
          const form = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId };
          tokens = (await postForm(rde, `${OAUTH}/token`, form)).body as typeof tokens;
        }),
      );
    }
    console.log(describePercentiles('  MCP ping, API key bearer     ', withKey));
    console.log(describePercentiles('  MCP ping, OAuth access token ', withToken));
    console.log(`  access token / API key median ratio ${(median(withToken) / median(withKey)).toFixed(2)}×`);
    console.log(describePercentiles('  token endpoint, refresh      ', refreshes));
  } finally {
    await rde.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
