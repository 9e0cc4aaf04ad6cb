import { api, NOT_AUTHENTICATED, sandboxCounters } from '../e2e/api';
import { mode, startRde, waitUntil, type RunningRde } from '../e2e/harness';

jest.setTimeout(120_000);

/**
 * The spec's API keys section, by the rule of each route (POST: the plaintext key once; GET: metadata
 * only; DELETE: a member revokes only the keys they minted, the owner any), and the authentication
 * that keys give, through the gateway.
 */

/** How long the gateway may keep trusting a resolved bearer (RDE_BEARER_CACHE_MS, default). */
const BEARER_CACHE_MS = 2_000;

interface AdminResult {
  workspace_id: string;
  user_id: string;
  email: string;
  role: string;
  key_id: string;
  key: string;
}

describe(`API keys (${mode})`, () => {
  let rde: RunningRde;

  beforeAll(async () => {
    rde = await startRde();
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const admin = async (...args: string[]): Promise<AdminResult> => JSON.parse(await rde.admin(args));
  let emails = 0;
  const email = (who: string) => `${who}.${++emails}@example.com`;

  /** A fresh workspace with its owner and two members, each holding the key the admin minted. */
  async function team() {
    const owner = await admin('create-workspace', '--email', email('owner'), '--name', 'Team');
    const bob = await admin('add-member', '--workspace', owner.workspace_id, '--email', email('bob'));
    const eve = await admin('add-member', '--workspace', owner.workspace_id, '--email', email('eve'));
    return { owner, bob, eve };
  }

  /**
   * Waits until the key no longer authenticates. How late a revocation may take effect (the bearer
   * cache window) is tested on a manual clock in the gateway's own tests, not on wall time here.
   */
  async function expectRevoked(key: string) {
    await waitUntil(
      async () => (await api(rde, 'GET', '/api/v2/keys', { key })).status === 401,
      BEARER_CACHE_MS + 10_000,
      50,
    );
    expect((await api(rde, 'GET', '/api/v2/keys', { key })).body).toEqual(NOT_AUTHENTICATED.refused);
  }

  describe('authentication', () => {
    test('a missing bearer is 401', async () => {
      const response = await api(rde, 'GET', '/api/v2/keys', { key: null });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(NOT_AUTHENTICATED.missing);
    });

    test('an unknown bearer is 401 with the body a revoked key gets', async () => {
      const response = await api(rde, 'GET', '/api/v2/keys', { key: `rde_live_${'0'.repeat(43)}` });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(NOT_AUTHENTICATED.refused);
    });

    test('the dev workspace owner key from RDE_DEV_API_KEY authenticates', async () => {
      expect((await api(rde, 'GET', '/api/v2/keys')).status).toBe(200);
    });

    test('X-Workspace-Id to a workspace the user is not in is 404, like one that does not exist', async () => {
      const other = await admin('create-workspace', '--email', email('grace'));
      for (const workspaceId of [other.workspace_id, 'ws_doesnotexist']) {
        const response = await api(rde, 'GET', '/api/v2/keys', { headers: { 'x-workspace-id': workspaceId } });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ detail: 'Workspace not found' });
      }
    });

    test('X-Workspace-Id to a workspace the user is in acts there, with the role held there', async () => {
      const { owner } = await team();
      const home = await admin('create-workspace', '--email', email('ada'));
      const joined = await admin('add-member', '--workspace', owner.workspace_id, '--email', home.email);
      const switched = { key: home.key, headers: { 'x-workspace-id': owner.workspace_id } };
      const listed = await api(rde, 'GET', '/api/v2/keys', switched);
      expect(listed.status).toBe(200);
      expect(listed.body.keys.map((key: { id: string }) => key.id)).toContain(joined.key_id);
      // a member there: the owner's key is out of reach
      const refused = await api(rde, 'DELETE', `/api/v2/keys/${owner.key_id}`, switched);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ detail: 'Members can revoke only the API keys they minted' });
      expect((await api(rde, 'GET', '/api/v2/keys', { key: owner.key })).status).toBe(200);
    });
  });

  describe('POST, GET, DELETE /api/v2/keys', () => {
    test('POST returns the plaintext key once; GET lists key metadata only; DELETE revokes: the key stops working', async () => {
      const created = await api(rde, 'POST', '/api/v2/keys', { body: { name: 'ci runner' } });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^key_/),
        name: 'ci runner',
        key: expect.stringMatching(/^rde_live_[A-Za-z0-9]{40,}$/),
        prefix: expect.stringMatching(/^rde_live_/),
        created_at: expect.any(String),
      });
      const { id, key, prefix } = created.body;
      expect(key.startsWith(prefix)).toBe(true);
      expect((await api(rde, 'GET', '/api/v2/keys', { key })).status).toBe(200);

      const listed = await api(rde, 'GET', '/api/v2/keys');
      expect(listed.status).toBe(200);
      const entry = listed.body.keys.find((k: { id: string }) => k.id === id);
      expect(entry).toEqual({
        id,
        name: 'ci runner',
        prefix,
        created_by: expect.stringMatching(/^usr_/),
        created_at: created.body.created_at,
        last_used_at: expect.any(String),
      });
      expect(listed.text).not.toContain(key);
      expect(listed.text).not.toContain(rde.ownerKey);

      const revoked = await api(rde, 'DELETE', `/api/v2/keys/${id}`);
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({ id, revoked: true });
      await expectRevoked(key);
      const after = await api(rde, 'GET', '/api/v2/keys');
      expect(after.body.keys.map((k: { id: string }) => k.id)).not.toContain(id);
    });

    test('revoking a revoked key again answers the same', async () => {
      const { body } = await api(rde, 'POST', '/api/v2/keys', { body: { name: 'twice' } });
      await api(rde, 'DELETE', `/api/v2/keys/${body.id}`);
      const again = await api(rde, 'DELETE', `/api/v2/keys/${body.id}`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ id: body.id, revoked: true });
    });

    test("an unknown key and another workspace's key are 404", async () => {
      const other = await admin('create-workspace', '--email', email('grace'));
      for (const id of ['key_doesnotexist', other.key_id]) {
        const response = await api(rde, 'DELETE', `/api/v2/keys/${id}`);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ detail: 'API key not found' });
      }
      expect((await api(rde, 'GET', '/api/v2/keys', { key: other.key })).status).toBe(200);
    });
  });

  describe('DELETE: a member may revoke only keys they minted; the owner may manage any', () => {
    test("a member cannot revoke another member's key or the owner's", async () => {
      const { owner, bob, eve } = await team();
      for (const target of [eve, owner]) {
        const response = await api(rde, 'DELETE', `/api/v2/keys/${target.key_id}`, { key: bob.key });
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ detail: 'Members can revoke only the API keys they minted' });
        expect((await api(rde, 'GET', '/api/v2/keys', { key: target.key })).status).toBe(200);
      }
    });

    test('a member sees every key of the workspace and can revoke their own', async () => {
      const { owner, bob, eve } = await team();
      const minted = await api(rde, 'POST', '/api/v2/keys', { key: bob.key, body: { name: 'laptop' } });
      expect(minted.status).toBe(201);
      const listed = await api(rde, 'GET', '/api/v2/keys', { key: bob.key });
      expect(listed.body.keys.map((k: { id: string }) => k.id).sort()).toEqual(
        [owner.key_id, bob.key_id, eve.key_id, minted.body.id].sort(),
      );
      const revoked = await api(rde, 'DELETE', `/api/v2/keys/${minted.body.id}`, { key: bob.key });
      expect(revoked.status).toBe(200);
      await expectRevoked(minted.body.key);
      expect((await api(rde, 'GET', '/api/v2/keys', { key: bob.key })).status).toBe(200);
    });

    test("the owner can revoke a member's key", async () => {
      const { owner, eve } = await team();
      const response = await api(rde, 'DELETE', `/api/v2/keys/${eve.key_id}`, { key: owner.key });
      expect(response.status).toBe(200);
      await expectRevoked(eve.key);
    });

    test('a revoked key spends nothing: its paid call is 401, the vendor is not asked, the ledger is unchanged', async () => {
      const { owner, eve } = await team();
      await api(rde, 'DELETE', `/api/v2/keys/${eve.key_id}`, { key: owner.key });
      await expectRevoked(eve.key);
      const balance = async () => (await api(rde, 'GET', '/billing/balance', { key: owner.key })).body;
      const searches = async () => (await sandboxCounters(rde)).pplgraph?.search?.requests ?? 0;
      const [before, searchesBefore] = [await balance(), await searches()];

      const call = await api(rde, 'POST', '/tools/pplgraph/search', {
        key: eve.key,
        body: { payload: { query: { job_title: ['Software Engineer'] }, size: 2 } },
      });
      expect(call.status).toBe(401);
      expect(call.body).toEqual(NOT_AUTHENTICATED.refused);
      expect(await searches()).toBe(searchesBefore);
      const after = await balance();
      expect(after).toMatchObject({ balance: before.balance, reserved: 0 });
      expect(after.recent_ledger).toEqual(before.recent_ledger);
    });
  });

  describe('validation', () => {
    const BAD_BODIES: [string, unknown, (string | number)[]][] = [
      ['no name', {}, ['body', 'name']],
      ['an empty name', { name: '' }, ['body', 'name']],
      ['a blank name', { name: '   ' }, ['body', 'name']],
      ['a name over 100 characters', { name: 'x'.repeat(101) }, ['body', 'name']],
      ['an unknown field', { name: 'ok', scope: 'admin' }, ['body', 'scope']],
      ['a body that is not an object', ['ci'], ['body']],
    ];

    test.each(BAD_BODIES)('%s is a 422 detail list and mints nothing', async (_what, body, loc) => {
      const before = (await api(rde, 'GET', '/api/v2/keys')).body.keys.length;
      const response = await api(rde, 'POST', '/api/v2/keys', { body });
      expect(response.status).toBe(422);
      expect(response.body.detail).toEqual(
        expect.arrayContaining([expect.objectContaining({ loc, msg: expect.any(String), type: expect.any(String) })]),
      );
      expect((await api(rde, 'GET', '/api/v2/keys')).body.keys).toHaveLength(before);
    });

    test('an over-long key id is a 422 naming the path and the limit', async () => {
      // 200 characters is the one limit of every path parameter, in the router and the schemas.
      const response = await api(rde, 'DELETE', `/api/v2/keys/key_${'x'.repeat(197)}`);
      expect(response.status).toBe(422);
      expect(response.body.detail).toEqual([
        { loc: ['path'], msg: 'must NOT have more than 200 characters', type: 'maxLength' },
      ]);
      const longest = await api(rde, 'DELETE', `/api/v2/keys/key_${'x'.repeat(196)}`);
      expect(longest.status).toBe(404);
    });
  });

  test('rde admin refuses bad requests and says why, creating nothing', async () => {
    const owner = await admin('create-workspace', '--email', email('owner'));
    const addOwnerAgain = ['add-member', '--workspace', owner.workspace_id, '--email', owner.email];
    await expect(rde.admin(addOwnerAgain)).rejects.toThrow(/409 .*already a member of this workspace/);
    const unknownWorkspace = ['add-member', '--workspace', 'ws_doesnotexist', '--email', email('bob')];
    await expect(rde.admin(unknownWorkspace)).rejects.toThrow(/404 .*Workspace not found/);
    await expect(rde.admin(['create-workspace', '--email', 'not-an-email'])).rejects.toThrow(/422 .*must be an email/);
    await expect(rde.admin(['create-workspace'])).rejects.toThrow(/missing --email/);
    const keys = await api(rde, 'GET', '/api/v2/keys', { key: owner.key });
    expect(keys.body.keys.map((key: { id: string }) => key.id)).toEqual([owner.key_id]);
  });

  test('the routes are in the OpenAPI document under the Keys tag', async () => {
    const document = (await api(rde, 'GET', '/openapi.json', { key: null })).body;
    expect(document.paths['/api/v2/keys'].post.tags).toEqual(['Keys']);
    expect(document.paths['/api/v2/keys'].get.tags).toEqual(['Keys']);
    expect(document.paths['/api/v2/keys/{key_id}'].delete.tags).toEqual(['Keys']);
  });
});
