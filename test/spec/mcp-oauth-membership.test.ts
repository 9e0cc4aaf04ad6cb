import { api, sandboxCounters } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';
import { approvedCode, OAUTH, postForm, redeemCode } from '../e2e/mcp-oauth';
import { signIn } from '../e2e/sign-in';
import { newTeam, type Team } from '../e2e/teams';

jest.setTimeout(180_000);

/** The membership check at use trusts an answer this long (RDE_MCP_OAUTH_MEMBERSHIP_CACHE_MS's default). */
const MEMBERSHIP_CACHE_MS = 2_000;

/**
 * An OAuth grant acts for its user in the workspace they chose, and only while they belong to it:
 * a member removed from the workspace (`rde admin remove-member`, the operator's tool) loses what
 * they approved at the token endpoint and at the MCP endpoint (decision 0029).
 */
describe(`MCP OAuth grants end with the membership (${mode})`, () => {
  let rde: RunningRde;
  let team: Team;
  let memberEmail: string;
  let cookie: string;

  beforeAll(async () => {
    rde = await startRde({ RDE_SANDBOX_LATENCY_SCALE: '0' }, mode, { shared: true });
    team = await newTeam(rde, 'leaver');
    memberEmail = (await api(rde, 'GET', '/api/v2/me', { key: team.member })).body.user.email;
    cookie = `rde_session=${(await signIn(rde, memberEmail)).session}`;
  });

  afterAll(async () => {
    await rde?.stop();
  });

  /** The member approves a client for the team workspace. */
  const memberCode = () => approvedCode(rde, cookie, {}, { workspace_id: team.workspaceId });
  const redeem = (approved: Awaited<ReturnType<typeof memberCode>>) => redeemCode(rde, approved);
  const refresh = (clientId: string, refreshToken: string) =>
    postForm(rde, `${OAUTH}/token`, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
  const paidSearch = (accessToken: string) =>
    api(rde, 'POST', '/api/v2/mcp', {
      key: accessToken,
      headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'call_tool_method',
          arguments: { tool: 'pplgraph', method: 'search', payload: { query: { job_title: ['Engineer'] }, size: 1 } },
        },
      },
    });
  const ledgerSize = async () => {
    const balance = () => api(rde, 'GET', '/billing/balance', { key: team.owner });
    await waitUntil(async () => (await balance()).body._meta.settled === true, 30_000);
    return ((await balance()).body.recent_ledger as unknown[]).length;
  };
  const searches = async () => (await sandboxCounters(rde)).pplgraph?.search?.requests ?? 0;

  test('a removed member’s grants stop: refresh is invalid_grant, a pending code is invalid_grant, the access token gets invalid_token and is never charged', async () => {
    const used = await memberCode();
    const tokens = (await redeem(used)).body;
    const refreshable = await memberCode();
    const refreshTokens = (await redeem(refreshable)).body;
    const pending = await memberCode();
    const working = await paidSearch(tokens.access_token);
    expect(working.status).toBe(200);
    expect(working.body.result.isError).toBeFalsy();

    const removed = JSON.parse(
      await rde.admin(['remove-member', '--workspace', team.workspaceId, '--email', memberEmail]),
    );
    expect(removed).toMatchObject({ workspace_id: team.workspaceId, user_id: team.memberId });

    // Issuing tokens always asks auth: refused at once, and the grant is revoked.
    const refused = await refresh(refreshable.clientId, refreshTokens.refresh_token);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/member/) });
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect((await paidSearch(refreshTokens.access_token)).status).toBe(401);
    const redeemed = await redeem(pending);
    expect(redeemed.status).toBe(400);
    expect(redeemed.body).toMatchObject({ error: 'invalid_grant' });

    // At use, the answer is trusted for a moment (the gateway's API-key cache is as long), then refused.
    const ledgerBefore = await ledgerSize();
    const searchesBefore = await searches();
    await new Promise((resolve) => setTimeout(resolve, MEMBERSHIP_CACHE_MS));
    const denied = await paidSearch(tokens.access_token);
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toMatch(
      /^Bearer error="invalid_token", .*resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/api\/v2\/mcp", scope="mcp"$/,
    );
    expect(denied.body).toMatchObject({ error: 'invalid_token' });
    expect(await ledgerSize()).toBe(ledgerBefore);
    expect(await searches()).toBe(searchesBefore);
    // The grant is revoked, not just refused: its refresh token is dead too.
    expect((await refresh(used.clientId, tokens.refresh_token)).body).toMatchObject({ error: 'invalid_grant' });
  });

  test('a removed member’s API key and browser session stop acting for the workspace; the owner cannot be removed', async () => {
    await waitUntil(async () => (await api(rde, 'GET', '/api/v2/me', { key: team.member })).status === 401, 10_000);
    const withSession = await api(rde, 'GET', '/api/v2/me', { key: null, headers: { cookie } });
    expect(withSession.status).toBe(401);
    const ownerEmail = (await api(rde, 'GET', '/api/v2/me', { key: team.owner })).body.user.email;
    await expect(rde.admin(['remove-member', '--workspace', team.workspaceId, '--email', ownerEmail])).rejects.toThrow(
      /409/,
    );
    expect((await api(rde, 'GET', '/api/v2/me', { key: team.owner })).status).toBe(200);
  });
});
