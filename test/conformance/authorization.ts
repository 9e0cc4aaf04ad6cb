/**
 * The authorization-server scenarios of @modelcontextprotocol/conformance (`authorization` command:
 * authorization-server-metadata-endpoint, authorization-code-grant) against the MCP authorization
 * server (decision 0029). The CLI prints an authorization URL for a human to open; this driver is
 * that human: a signed-in browser session (emailed link, read through Mailpit) is sent to the consent
 * page, approves, and follows the redirect to the CLI's callback server. Prints, and appends to
 * $RDE_TALLY_FILE when set: `test <passed> <failed> 0`.
 *
 *   RDE_CONFORMANCE_NODE=<node 22+> RDE_CONFORMANCE_CLI=<conformance dist/index.js> \
 *     RDE_E2E_MODE=all pnpm exec tsx test/conformance/authorization.ts
 *
 * Needs Mailpit (deploy/backends.sh env) and the project built (services/rde/dist).
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { api } from '../e2e/api';
import { freePort, startRde, type RunningRde } from '../e2e/harness';
import { postForm, signedInOwner } from '../e2e/mcp-oauth';

const SCENARIOS = 2;

/** Approves the authorization request the CLI printed, as the signed-in browser would. */
async function consent(rde: RunningRde, cookie: string, authorizationUrl: string): Promise<void> {
  const url = new URL(authorizationUrl);
  const page = await api(rde, 'GET', `${url.pathname}${url.search}`, { key: null, headers: { cookie } });
  const consentPage = page.status === 302 && new URL(page.headers.get('location')!, rde.baseUrl).pathname;
  if (consentPage !== '/app/oauth/consent') throw new Error(`authorize answered ${page.status}: ${page.text}`);
  const form = { ...Object.fromEntries(url.searchParams), decision: 'approve' };
  const approved = await postForm(rde, url.pathname, form, { cookie });
  if (approved.status !== 303) throw new Error(`the approval answered ${approved.status}: ${approved.text}`);
  await fetch(approved.headers.get('location')!);
}

async function runCli(rde: RunningRde): Promise<{ passed: number; failed: number }> {
  const { cookie } = await signedInOwner(rde);
  const port = await freePort();
  const registered = await api(rde, 'POST', '/api/v2/mcp/oauth/register', {
    key: null,
    body: { client_name: 'conformance', redirect_uris: [`http://127.0.0.1:${port}/callback`] },
  });
  const args = ['authorization', '--url', rde.baseUrl, '--client-id', registered.body.client_id as string];
  args.push('--resource', `${rde.baseUrl}/api/v2/mcp`, '--port', String(port));
  const cli = spawn(process.env.RDE_CONFORMANCE_NODE!, [process.env.RDE_CONFORMANCE_CLI!, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  let consented: Promise<void> | undefined;
  cli.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    output += chunk.toString();
    const printed = /^(http\S+\/api\/v2\/mcp\/oauth\/authorize\?\S+)$/m.exec(output);
    if (printed && !consented) consented = consent(rde, cookie, printed[1]);
  });
  const status = await new Promise<number | null>((resolve) => cli.on('exit', resolve));
  await consented;
  const total = /Total: (\d+) passed, (\d+) failed/.exec(output);
  const passed = total ? Number(total[1]) : 0;
  const failed = total ? Number(total[2]) : SCENARIOS;
  return { passed, failed: status === 0 ? failed : Math.max(failed, 1) };
}

async function main(): Promise<void> {
  if (!process.env.RDE_CONFORMANCE_NODE || !process.env.RDE_CONFORMANCE_CLI) {
    throw new Error(
      'set RDE_CONFORMANCE_NODE (node 22 or newer) and RDE_CONFORMANCE_CLI (the conformance dist/index.js)',
    );
  }
  const rde = await startRde();
  let result = { passed: 0, failed: SCENARIOS };
  try {
    result = await runCli(rde);
  } finally {
    await rde.stop();
  }
  const summary = `conformance (authorization server): ${result.passed} passed, ${result.failed} failed`;
  console.log(summary);
  if (process.env.RDE_TALLY_FILE)
    appendFileSync(process.env.RDE_TALLY_FILE, `test ${result.passed} ${result.failed} 0\n`);
  // test/run prints the summary again in its closing note.
  if (process.env.RDE_ST_SUMMARY_FILE) appendFileSync(process.env.RDE_ST_SUMMARY_FILE, `${summary}\n`);
  process.exit(result.failed > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  if (process.env.RDE_TALLY_FILE) appendFileSync(process.env.RDE_TALLY_FILE, `test 0 ${SCENARIOS} 0\n`);
  process.exit(1);
});
