import { createClient, errors } from '@rde/platform';
import { signin } from '@rde/proto';
import { failure, memberOf, startAuth, workspaceOf, type AuthUnderTest } from './support';

const REFUSED = { status: 401, body: errors.notAuthenticated('refused').body };
const LAST_OWNER = {
  status: 409,
  body: { detail: "This is the workspace's last owner: make another member an owner first" },
};
const NOT_A_MEMBER = { status: 404, body: { detail: 'Member not found in this workspace' } };

/** RemoveWorkspaceMember and ChangeMemberRole: what a removal ends, and a workspace never left ownerless. */
describe('auth service: removing members and changing roles', () => {
  let auth: AuthUnderTest;
  let sign: ReturnType<typeof createClient<typeof signin.SignInServiceService>>;
  let teams = 0;

  beforeAll(async () => {
    auth = await startAuth();
    sign = createClient(signin.SignInServiceService, { address: auth.address, deadlineMs: 5_000 });
  });

  afterAll(async () => {
    sign.close();
    await auth.stop();
  });

  /** A workspace with its owner (ada) and one member (bob), each with a key and their resolved caller. */
  async function team() {
    const tag = ++teams;
    const ws = await workspaceOf(auth.client, `ada${tag}@example.com`);
    const bob = await memberOf(auth.client, ws.workspaceId, `bob${tag}@example.com`);
    return {
      ...ws,
      tag,
      bob,
      owner: await auth.callerOf(ws.ownerKey),
      member: await auth.callerOf(bob.key),
    };
  }
  /** Each member's role by user id (members created at one clock tick list in no set order). */
  const roles = async (caller: Awaited<ReturnType<typeof auth.callerOf>>) =>
    Object.fromEntries((await auth.client.listMembers({}, { caller })).members.map((row) => [row.userId, row.role]));

  test('the owner removes a member: the removed row is answered and their key stays revoked when they are added back', async () => {
    const { workspaceId, owner, bob, tag } = await team();
    const removed = await auth.client.removeWorkspaceMember({ userId: bob.userId }, { caller: owner });
    expect(removed.member).toEqual({ userId: bob.userId, email: `bob${tag}@example.com`, role: 'member' });
    expect(await failure(auth.callerOf(bob.key))).toEqual(REFUSED);
    await memberOf(auth.client, workspaceId, `bob${tag}@example.com`);
    expect(await failure(auth.callerOf(bob.key))).toEqual(REFUSED);
    const keys = (await auth.client.listKeys({}, { caller: owner })).keys.map((key) => key.id);
    expect(keys).not.toContain(bob.keyId);
  });

  test("a removal revokes the member's browser session for the workspace and withdraws pending invites to and from them", async () => {
    const { workspaceId, owner, bob, tag } = await team();
    const bobEmail = `bob${tag}@example.com`;
    await sign.rpc.sendMagicLink({ email: bobEmail, cliToken: '', next: '', inviteCode: '' });
    const mail = auth.logged.map((line) => line.fields.mail as { to: string; text: string } | undefined);
    const code = /code: (\d{6})/.exec(mail.filter((sent) => sent?.to === bobEmail).pop()!.text)![1]!;
    const session = (await sign.rpc.verifyCode({ email: bobEmail, code })).result!;
    expect(session.workspaceId).toBe(workspaceId);
    await auth.client.changeMemberRole({ userId: bob.userId, role: 'owner' }, { caller: owner });
    const asOwner = await auth.callerOf(bob.key);
    await sign.rpc.createInvite({ email: `friend${tag}@example.com` }, { caller: asOwner });
    await sign.rpc.createInvite({ email: bobEmail }, { caller: owner });
    await sign.rpc.createInvite({ email: `carol${tag}@example.com` }, { caller: owner });

    await auth.client.removeWorkspaceMember({ userId: bob.userId }, { caller: owner });
    expect(await failure(auth.callerOf(session.sessionToken))).toEqual(REFUSED);
    const invites = (await sign.rpc.listInvites({}, { caller: owner })).invites.map((invite) => invite.email);
    expect(invites).toEqual([`carol${tag}@example.com`]);
  });

  test('a member may leave; a member removing another member is refused (403) and nothing changes', async () => {
    const { workspaceId, ownerId, owner, member, bob } = await team();
    const carol = await memberOf(auth.client, workspaceId, `carol${teams}@example.com`);
    expect(await failure(auth.client.removeWorkspaceMember({ userId: carol.userId }, { caller: member }))).toEqual({
      status: 403,
      body: { detail: 'Only the workspace owner can remove members' },
    });
    expect(await roles(owner)).toEqual({ [ownerId]: 'owner', [bob.userId]: 'member', [carol.userId]: 'member' });
    await auth.client.removeWorkspaceMember({ userId: bob.userId }, { caller: member });
    expect(await roles(owner)).toEqual({ [ownerId]: 'owner', [carol.userId]: 'member' });
    expect(await failure(auth.callerOf(bob.key))).toEqual(REFUSED);
  });

  test('a user of another workspace, an unknown id and an empty id are all 404', async () => {
    const { owner } = await team();
    const other = await team();
    for (const userId of [other.bob.userId, 'usr_nope', '']) {
      expect(await failure(auth.client.removeWorkspaceMember({ userId }, { caller: owner }))).toEqual(NOT_A_MEMBER);
      const role = { userId, role: 'owner' };
      expect(await failure(auth.client.changeMemberRole(role, { caller: owner }))).toEqual(NOT_A_MEMBER);
    }
    expect(await auth.callerOf(other.bob.key)).toMatchObject({ role: 'member' });
  });

  test('the last owner can be neither demoted nor removed (409); with a second owner both can, and the named owner passes on', async () => {
    const { owner, ownerId, bob, member } = await team();
    const demote = { userId: ownerId, role: 'member' };
    expect(await failure(auth.client.changeMemberRole(demote, { caller: owner }))).toEqual(LAST_OWNER);
    expect(await failure(auth.client.removeWorkspaceMember({ userId: ownerId }, { caller: owner }))).toEqual(
      LAST_OWNER,
    );
    expect(await roles(owner)).toEqual({ [ownerId]: 'owner', [bob.userId]: 'member' });

    await auth.client.changeMemberRole({ userId: bob.userId, role: 'owner' }, { caller: owner });
    const promoted = await auth.callerOf(bob.key);
    expect(promoted.role).toBe('owner');
    const demoted = await auth.client.changeMemberRole(demote, { caller: promoted });
    expect(demoted.member).toMatchObject({ userId: ownerId, role: 'member' });
    const workspace = (await auth.client.getWorkspace({}, { caller: promoted })).workspace!;
    expect(workspace.ownerUserId).toBe(bob.userId);
    expect(member.role).toBe('member');
  });

  test('an owner demoted a moment ago is refused owner actions at once, whatever role their caller still carries', async () => {
    const { owner, ownerId, bob } = await team();
    await auth.client.changeMemberRole({ userId: bob.userId, role: 'owner' }, { caller: owner });
    const bobAsOwner = await auth.callerOf(bob.key);
    await auth.client.changeMemberRole({ userId: ownerId, role: 'member' }, { caller: bobAsOwner });
    // `owner` still says role 'owner', as a gateway's short cache might.
    const refused = await failure(
      auth.client.changeMemberRole({ userId: bob.userId, role: 'member' }, { caller: owner }),
    );
    expect(refused).toEqual({ status: 403, body: { detail: "Only the workspace owner can change members' roles" } });
    expect(await roles(bobAsOwner)).toEqual({ [ownerId]: 'member', [bob.userId]: 'owner' });
  });

  test('setting the role a member has changes nothing; a role outside owner and member is 422', async () => {
    const { owner, ownerId, bob } = await team();
    const same = await auth.client.changeMemberRole({ userId: bob.userId, role: 'member' }, { caller: owner });
    expect(same.member).toMatchObject({ userId: bob.userId, role: 'member' });
    const bad = await failure(auth.client.changeMemberRole({ userId: bob.userId, role: 'admin' }, { caller: owner }));
    expect(bad.status).toBe(422);
    expect(await roles(owner)).toEqual({ [ownerId]: 'owner', [bob.userId]: 'member' });
  });

  test('two owners demoting each other at once leave the workspace with at least one owner', async () => {
    const { owner, ownerId, bob } = await team();
    await auth.client.changeMemberRole({ userId: bob.userId, role: 'owner' }, { caller: owner });
    const bobAsOwner = await auth.callerOf(bob.key);
    const outcomes = await Promise.allSettled([
      auth.client.changeMemberRole({ userId: bob.userId, role: 'member' }, { caller: owner }),
      auth.client.changeMemberRole({ userId: ownerId, role: 'member' }, { caller: bobAsOwner }),
    ]);
    expect(outcomes.some((outcome) => outcome.status === 'rejected')).toBe(true);
    expect(Object.values(await roles(bobAsOwner))).toContain('owner');
  });
});
