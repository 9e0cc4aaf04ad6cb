import { errors } from '@rde/platform';
import { failure, memberOf, startAuth, workspaceOf, type AuthUnderTest } from './support';

/** A caller-scoped RPC without a caller (the gateway always resolves one first). */
const UNAUTHENTICATED = { status: 401, body: { detail: 'Not authenticated' } };
/** An unknown, revoked or malformed bearer: one answer for all, so none tells whether a key existed. */
const REFUSED = { status: 401, body: errors.notAuthenticated('refused').body };

describe('auth service: API keys and bearer resolution', () => {
  let auth: AuthUnderTest;
  beforeEach(async () => {
    auth = await startAuth();
  });
  afterEach(() => auth.stop());

  describe('ResolveBearer', () => {
    test('a key resolves to its workspace, user, role and key id', async () => {
      const { workspaceId, ownerId, ownerKey } = await workspaceOf(auth.client, 'Ada@Example.com');
      const caller = await auth.callerOf(ownerKey);
      expect(caller).toMatchObject({ workspaceId, userId: ownerId, role: 'owner' });
      expect(caller.keyId).toMatch(/^key_/);
    });

    test('a missing, unknown or malformed bearer is 401', async () => {
      await workspaceOf(auth.client, 'ada@example.com');
      for (const token of ['', 'rde_live_unknownunknownunknownunknown', 'not-a-key']) {
        expect(await failure(auth.client.resolveBearer({ token, workspaceId: '' }))).toEqual(REFUSED);
      }
    });

    test('a revoked key is 401, like an unknown one', async () => {
      const { ownerKey } = await workspaceOf(auth.client, 'ada@example.com');
      const owner = await auth.callerOf(ownerKey);
      await auth.client.revokeKey({ keyId: owner.keyId }, { caller: owner });
      expect(await failure(auth.callerOf(ownerKey))).toEqual(REFUSED);
    });

    test('X-Workspace-Id switches to a workspace the user belongs to, with the role held there', async () => {
      const ada = await workspaceOf(auth.client, 'ada@example.com');
      const team = await workspaceOf(auth.client, 'grace@example.com');
      await memberOf(auth.client, team.workspaceId, 'ada@example.com');
      const switched = await auth.client.resolveBearer({ token: ada.ownerKey, workspaceId: team.workspaceId });
      expect(switched.caller).toMatchObject({ workspaceId: team.workspaceId, userId: ada.ownerId, role: 'member' });
    });

    test('a switch to a workspace the user is not in is 404, the same whether it exists or not', async () => {
      const ada = await workspaceOf(auth.client, 'ada@example.com');
      const other = await workspaceOf(auth.client, 'grace@example.com');
      const notFound = { status: 404, body: { detail: 'Workspace not found' } };
      for (const workspaceId of [other.workspaceId, 'ws_doesnotexist']) {
        expect(await failure(auth.client.resolveBearer({ token: ada.ownerKey, workspaceId }))).toEqual(notFound);
      }
    });

    test('last use is recorded at most once a minute', async () => {
      const { ownerKey } = await workspaceOf(auth.client, 'ada@example.com');
      const lastUsed = async () => {
        const caller = await auth.callerOf(ownerKey);
        return (await auth.client.listKeys({}, { caller })).keys[0].lastUsedAtMs;
      };
      const first = auth.clock.now();
      expect(await lastUsed()).toBe(first);
      auth.clock.advance(59_000);
      expect(await lastUsed()).toBe(first);
      auth.clock.advance(1_000);
      expect(await lastUsed()).toBe(first + 60_000);
    });
  });

  describe('CreateKey', () => {
    test('mints a key in the caller workspace whose plaintext is returned once and resolves', async () => {
      const { workspaceId, ownerId, ownerKey } = await workspaceOf(auth.client, 'ada@example.com');
      const owner = await auth.callerOf(ownerKey);
      const created = await auth.client.createKey({ name: 'ci' }, { caller: owner });
      // 256 random bits in base62: 43 characters, rarely fewer
      expect(created.keyPlaintext).toMatch(/^rde_live_[A-Za-z0-9]{40,44}$/);
      expect(created.keyPlaintext.startsWith(created.key!.displayPrefix)).toBe(true);
      expect(created.key).toMatchObject({ name: 'ci', workspaceId, createdByUserId: ownerId, lastUsedAtMs: 0 });
      expect(await auth.callerOf(created.keyPlaintext)).toMatchObject({ workspaceId, keyId: created.key!.id });
    });

    test('a blank, empty or too long name is a 422 detail list and stores nothing', async () => {
      const { ownerKey } = await workspaceOf(auth.client, 'ada@example.com');
      const owner = await auth.callerOf(ownerKey);
      for (const name of ['', '   ', 'x'.repeat(101)]) {
        const refused = await failure(auth.client.createKey({ name }, { caller: owner }));
        expect(refused.status).toBe(422);
        expect(refused.body).toEqual({ detail: [expect.objectContaining({ loc: ['body', 'name'] })] });
      }
      expect((await auth.client.listKeys({}, { caller: owner })).keys).toHaveLength(1);
    });

    test('a call without a caller is 401', async () => {
      expect(await failure(auth.client.createKey({ name: 'ci' }))).toEqual(UNAUTHENTICATED);
      expect(await failure(auth.client.listKeys({}))).toEqual(UNAUTHENTICATED);
      expect(await failure(auth.client.revokeKey({ keyId: 'key_x' }))).toEqual(UNAUTHENTICATED);
      expect(await failure(auth.client.getWorkspace({}))).toEqual(UNAUTHENTICATED);
    });
  });

  describe('ListKeys', () => {
    test('lists every live key of the workspace, metadata only, and nothing of other workspaces', async () => {
      const team = await workspaceOf(auth.client, 'ada@example.com');
      const member = await memberOf(auth.client, team.workspaceId, 'bob@example.com');
      await workspaceOf(auth.client, 'grace@example.com');
      const bob = await auth.callerOf(member.key);
      const listed = await auth.client.listKeys({}, { caller: bob });
      expect(listed.keys.map((key) => key.workspaceId)).toEqual([team.workspaceId, team.workspaceId]);
      // Keys minted in the same millisecond may list in either order.
      expect(listed.keys.map((key) => key.createdByUserId).sort()).toEqual([team.ownerId, member.userId].sort());
      const serialized = JSON.stringify(listed);
      expect(serialized).not.toContain(team.ownerKey);
      expect(serialized).not.toContain(member.key);
      expect(serialized).not.toMatch(/[0-9a-f]{64}/); // no hash either
    });

    test('a revoked key leaves the list', async () => {
      const { ownerKey } = await workspaceOf(auth.client, 'ada@example.com');
      const owner = await auth.callerOf(ownerKey);
      const spare = await auth.client.createKey({ name: 'spare' }, { caller: owner });
      await auth.client.revokeKey({ keyId: spare.key!.id }, { caller: owner });
      expect((await auth.client.listKeys({}, { caller: owner })).keys.map((k) => k.id)).toEqual([owner.keyId]);
    });
  });

  describe('RevokeKey', () => {
    async function team() {
      const { workspaceId, ownerKey } = await workspaceOf(auth.client, 'ada@example.com');
      const bob = await memberOf(auth.client, workspaceId, 'bob@example.com');
      const eve = await memberOf(auth.client, workspaceId, 'eve@example.com');
      return {
        owner: await auth.callerOf(ownerKey),
        bob: await auth.callerOf(bob.key),
        bobKey: bob.key,
        eve: await auth.callerOf(eve.key),
        eveKey: eve.key,
      };
    }
    const FORBIDDEN = { status: 403, body: { detail: 'Members can revoke only the API keys they minted' } };

    test("a member cannot revoke another member's key or the owner's, and the key keeps working", async () => {
      const { owner, bob, eve, eveKey } = await team();
      expect(await failure(auth.client.revokeKey({ keyId: eve.keyId }, { caller: bob }))).toEqual(FORBIDDEN);
      expect(await failure(auth.client.revokeKey({ keyId: owner.keyId }, { caller: bob }))).toEqual(FORBIDDEN);
      expect(await auth.callerOf(eveKey)).toMatchObject({ userId: eve.userId });
    });

    test('a member can revoke a key they minted', async () => {
      const { bob, bobKey } = await team();
      const revoked = await auth.client.revokeKey({ keyId: bob.keyId }, { caller: bob });
      expect(revoked.key).toMatchObject({ id: bob.keyId, createdByUserId: bob.userId });
      expect(await failure(auth.callerOf(bobKey))).toEqual(REFUSED);
    });

    test("the owner can revoke a member's key", async () => {
      const { owner, eve, eveKey } = await team();
      await auth.client.revokeKey({ keyId: eve.keyId }, { caller: owner });
      expect(await failure(auth.callerOf(eveKey))).toEqual(REFUSED);
    });

    test('revoking a revoked key again answers the same and keeps it revoked', async () => {
      const { owner, eve } = await team();
      const first = await auth.client.revokeKey({ keyId: eve.keyId }, { caller: owner });
      const again = await auth.client.revokeKey({ keyId: eve.keyId }, { caller: owner });
      expect(again).toEqual(first);
    });

    test("another workspace's key and an unknown key are 404, and nothing is revoked", async () => {
      const { owner } = await team();
      const other = await workspaceOf(auth.client, 'grace@example.com');
      const otherOwner = await auth.callerOf(other.ownerKey);
      const notFound = { status: 404, body: { detail: 'API key not found' } };
      expect(await failure(auth.client.revokeKey({ keyId: otherOwner.keyId }, { caller: owner }))).toEqual(notFound);
      expect(await failure(auth.client.revokeKey({ keyId: 'key_unknown' }, { caller: owner }))).toEqual(notFound);
      expect(await auth.callerOf(other.ownerKey)).toMatchObject({ keyId: otherOwner.keyId });
    });
  });
});
