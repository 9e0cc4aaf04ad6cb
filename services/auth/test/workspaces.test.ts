import { ConfigError } from '@rde/platform';
import { failure, memberOf, startAuth, workspaceOf, type AuthUnderTest } from './support';

const DEV_KEY = `rde_live_${'d'.repeat(40)}`;

describe('auth service: workspaces and members', () => {
  let auth: AuthUnderTest;
  beforeEach(async () => {
    auth = await startAuth();
  });
  afterEach(() => auth.stop());

  describe('CreateWorkspace', () => {
    test('creates the owner by lowercased email, the workspace and the owner key', async () => {
      const created = await auth.client.createWorkspace({
        ownerEmail: ' Ada@Example.COM ',
        name: 'Recruiting',
        keyPlaintext: '',
      });
      expect(created.owner).toEqual({ id: expect.stringMatching(/^usr_/), email: 'ada@example.com' });
      expect(created.workspace).toMatchObject({ name: 'Recruiting', ownerUserId: created.owner!.id });
      const owner = await auth.callerOf(created.keyPlaintext);
      expect(owner).toMatchObject({ workspaceId: created.workspace!.id, role: 'owner' });
    });

    test('the same email owns a second workspace as the same user', async () => {
      const first = await workspaceOf(auth.client, 'ada@example.com');
      const second = await workspaceOf(auth.client, 'ADA@example.com');
      expect(second.ownerId).toBe(first.ownerId);
      expect(second.workspaceId).not.toBe(first.workspaceId);
    });

    test('honours a given key plaintext, and refuses one already in use with 409', async () => {
      const created = await auth.client.createWorkspace({
        ownerEmail: 'ada@example.com',
        name: '',
        keyPlaintext: DEV_KEY,
      });
      expect(created.keyPlaintext).toBe(DEV_KEY);
      expect(await auth.callerOf(DEV_KEY)).toMatchObject({ workspaceId: created.workspace!.id });
      const reused = await failure(
        auth.client.createWorkspace({ ownerEmail: 'eve@example.com', name: '', keyPlaintext: DEV_KEY }),
      );
      expect(reused).toEqual({ status: 409, body: { detail: 'This API key is already in use' } });
    });

    test('a bad email, name or key is a 422 detail list naming each field', async () => {
      const refused = await failure(
        auth.client.createWorkspace({ ownerEmail: 'not-an-email', name: ' ', keyPlaintext: 'sk_live_short' }),
      );
      expect(refused.status).toBe(422);
      const fields = (refused.body as { detail: { loc: string[] }[] }).detail.map((issue) => issue.loc.join('.'));
      expect(fields.sort()).toEqual(['body.keyPlaintext', 'body.name', 'body.ownerEmail']);
    });
  });

  describe('AddMember', () => {
    test('adds a member with their own key, counted as a seat', async () => {
      const team = await workspaceOf(auth.client, 'ada@example.com');
      const bob = await memberOf(auth.client, team.workspaceId, 'Bob@Example.com');
      const caller = await auth.callerOf(bob.key);
      expect(caller).toMatchObject({ workspaceId: team.workspaceId, userId: bob.userId, role: 'member' });
      const view = await auth.client.getWorkspace({}, { caller });
      expect(view).toMatchObject({ user: { id: bob.userId, email: 'bob@example.com' }, role: 'member', seatsUsed: 2 });
    });

    test('an added owner gets the owner role', async () => {
      const team = await workspaceOf(auth.client, 'ada@example.com');
      const grace = await memberOf(auth.client, team.workspaceId, 'grace@example.com', 'owner');
      expect(await auth.callerOf(grace.key)).toMatchObject({ role: 'owner' });
    });

    test('an unknown workspace is 404', async () => {
      const refused = await failure(
        auth.client.addMember({ workspaceId: 'ws_nope', email: 'bob@example.com', role: '' }),
      );
      expect(refused).toEqual({ status: 404, body: { detail: 'Workspace not found' } });
    });

    test('someone already in the workspace is 409 and gets no new key', async () => {
      const team = await workspaceOf(auth.client, 'ada@example.com');
      await memberOf(auth.client, team.workspaceId, 'bob@example.com');
      const refused = await failure(
        auth.client.addMember({ workspaceId: team.workspaceId, email: 'BOB@example.com', role: '' }),
      );
      expect(refused).toEqual({
        status: 409,
        body: { detail: 'bob@example.com is already a member of this workspace' },
      });
      const owner = await auth.callerOf(team.ownerKey);
      expect((await auth.client.listKeys({}, { caller: owner })).keys).toHaveLength(2);
    });

    test('an unknown role or a bad email is 422', async () => {
      const team = await workspaceOf(auth.client, 'ada@example.com');
      const refused = await failure(
        auth.client.addMember({ workspaceId: team.workspaceId, email: 'bob', role: 'admin' }),
      );
      expect(refused.status).toBe(422);
      const fields = (refused.body as { detail: { loc: string[] }[] }).detail.map((issue) => issue.loc.join('.'));
      expect(fields.sort()).toEqual(['body.email', 'body.role']);
    });
  });

  describe('RemoveMember and GetMembership', () => {
    test('a removed member has no membership, and their key stops resolving', async () => {
      const team = await workspaceOf(auth.client, 'ada@example.com');
      const bob = await memberOf(auth.client, team.workspaceId, 'bob@example.com');
      const membership = { workspaceId: team.workspaceId, userId: bob.userId };
      expect(await auth.client.getMembership(membership)).toEqual({ role: 'member' });
      const removed = await auth.client.removeMember({ workspaceId: team.workspaceId, email: 'BOB@example.com' });
      expect(removed.user).toEqual({ id: bob.userId, email: 'bob@example.com' });
      expect(await failure(auth.client.getMembership(membership))).toMatchObject({ status: 404 });
      expect(await failure(auth.callerOf(bob.key))).toMatchObject({ status: 401 });
      expect(
        await failure(auth.client.removeMember({ workspaceId: team.workspaceId, email: 'bob@example.com' })),
      ).toEqual({ status: 404, body: { detail: 'Member not found in this workspace' } });
    });

    test('the last owner cannot be removed (409); an unknown workspace is 404', async () => {
      const team = await workspaceOf(auth.client, 'ada@example.com');
      const owner = await failure(
        auth.client.removeMember({ workspaceId: team.workspaceId, email: 'ada@example.com' }),
      );
      expect(owner).toEqual({
        status: 409,
        body: { detail: "This is the workspace's last owner: make another member an owner first" },
      });
      expect(await auth.callerOf(team.ownerKey)).toMatchObject({ role: 'owner' });
      const unknown = await failure(auth.client.removeMember({ workspaceId: 'ws_nope', email: 'ada@example.com' }));
      expect(unknown).toEqual({ status: 404, body: { detail: 'Workspace not found' } });
    });
  });

  describe('GetWorkspace', () => {
    test("the caller's workspace, user, role and seats", async () => {
      const created = await auth.client.createWorkspace({
        ownerEmail: 'ada@example.com',
        name: 'Team',
        keyPlaintext: '',
      });
      const caller = await auth.callerOf(created.keyPlaintext);
      expect(await auth.client.getWorkspace({}, { caller })).toEqual({
        workspace: created.workspace,
        user: created.owner,
        role: 'owner',
        seatsUsed: 1,
      });
    });
  });

  describe('FindWorkspace (admin)', () => {
    test('a workspace by its id; an unknown or empty id is 404', async () => {
      const created = await auth.client.createWorkspace({
        ownerEmail: 'ada@example.com',
        name: 'Team',
        keyPlaintext: '',
      });
      expect(await auth.client.findWorkspace({ workspaceId: created.workspace!.id })).toEqual({
        workspace: created.workspace,
      });
      for (const workspaceId of ['ws_nope', '']) {
        expect(await failure(auth.client.findWorkspace({ workspaceId }))).toMatchObject({
          status: 404,
          body: { detail: 'Workspace not found' },
        });
      }
    });
  });
});

describe('auth service: the dev workspace', () => {
  let auth: AuthUnderTest | undefined;
  afterEach(() => auth?.stop());

  test('all-in-one mints an owner key for dev@rde.local and shows it once in the log', async () => {
    auth = await startAuth({ allInOne: true });
    const shown = auth.logged.filter((line) => typeof line.fields.api_key === 'string');
    expect(shown).toHaveLength(1);
    const key = shown[0].fields.api_key as string;
    expect(shown[0].message).toContain(key);
    const caller = await auth.callerOf(key);
    expect(caller).toMatchObject({ workspaceId: 'ws_dev', role: 'owner' });
    expect((await auth.client.getWorkspace({}, { caller })).user?.email).toBe('dev@rde.local');
  });

  test('RDE_DEV_API_KEY is the owner key, also outside all-in-one', async () => {
    auth = await startAuth({ env: { RDE_DEV_API_KEY: DEV_KEY } });
    expect(await auth.callerOf(DEV_KEY)).toMatchObject({ workspaceId: 'ws_dev', role: 'owner' });
    expect(auth.logged.some((line) => 'api_key' in line.fields)).toBe(false);
  });

  test('restarts and racing replicas converge on one workspace, one owner and one key', async () => {
    auth = await startAuth({ allInOne: true });
    await Promise.all([auth.startReplica(), auth.startReplica(), auth.startReplica()]);
    expect(auth.logged.filter((line) => 'api_key' in line.fields)).toHaveLength(1);
    const caller = await auth.callerOf(auth.logged.find((line) => 'api_key' in line.fields)!.fields.api_key as string);
    expect((await auth.client.getWorkspace({}, { caller })).seatsUsed).toBe(1);
    expect((await auth.client.listKeys({}, { caller })).keys).toHaveLength(1);
  });

  test('a configured key survives restarts as the one owner key', async () => {
    auth = await startAuth({ env: { RDE_DEV_API_KEY: DEV_KEY } });
    await Promise.all([auth.startReplica(), auth.startReplica()]);
    const caller = await auth.callerOf(DEV_KEY);
    expect((await auth.client.listKeys({}, { caller })).keys).toHaveLength(1);
  });

  test('no dev workspace outside all-in-one without RDE_DEV_API_KEY', async () => {
    auth = await startAuth();
    expect(
      await failure(auth.client.addMember({ workspaceId: 'ws_dev', email: 'bob@example.com', role: '' })),
    ).toMatchObject({
      status: 404,
    });
  });

  test.each(['-1', '1.5', 'lots', '1000001'])(
    'RDE_DEV_GRANT_CREDITS=%s stops the start with a message naming it',
    async (value) => {
      await expect(startAuth({ env: { RDE_DEV_GRANT_CREDITS: value } })).rejects.toThrow(
        /RDE_DEV_GRANT_CREDITS="[^"]*" is invalid/,
      );
    },
  );

  test('a malformed RDE_DEV_API_KEY stops the start with a message naming it', async () => {
    await expect(startAuth({ env: { RDE_DEV_API_KEY: 'secret' } })).rejects.toThrow(ConfigError);
    await expect(startAuth({ env: { RDE_DEV_API_KEY: 'secret' } })).rejects.toThrow(
      /RDE_DEV_API_KEY="secret" is invalid: must be rde_live_/,
    );
  });
});
