import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { mcpClient } from '../e2e/mcp-client';
import { newTeam, type Team } from '../e2e/teams';

jest.setTimeout(180_000);

const SKILLS = '/api/v2/workspace/skills';

/** A valid package named `name`; `body` varies its content. */
const packageOf = (name: string, body = 'Be brief.', extra: Record<string, string> = {}) => ({
  'SKILL.md': `---\nname: ${name}\ndescription: How the team handles ${name}.\n---\n\n# ${name}\n\n${body}\n`,
  ...extra,
});

let counter = 0;
const freshName = (tag: string) => `${tag}-${Date.now().toString(36)}-${++counter}`;

/**
 * Custom skills: every route needs a signed-in user's key; personal skills go live at once; a
 * member's team version waits for the owner, who approves or rejects it; every transition is one
 * guarded write (in distributed mode across catalog's two replicas).
 */
describe(`spec: custom skills (${mode})`, () => {
  let rde: RunningRde;
  let team: Team;
  /** A second member of the same team. */
  let other: string;
  /** A legacy anonymous CLI approval's bearer: a key that belongs to no signed-in user. */
  let anonymous: string;

  beforeAll(async () => {
    rde = await startRde({}, mode, { shared: true });
    team = await newTeam(rde, 'skills');
    const added = JSON.parse(
      await rde.admin([
        'add-member',
        '--workspace',
        team.workspaceId,
        '--email',
        `skills.other.${Date.now()}@example.com`,
      ]),
    );
    other = added.key;
    const claim = (await api(rde, 'POST', '/api/v2/auth/cli/start', { key: null })).body.claim_id;
    await api(rde, 'POST', `/api/v2/auth/cli/claim/${claim}`, { key: null, body: {} });
    anonymous = (await api(rde, 'GET', `/api/v2/auth/cli/poll/${claim}`, { key: null })).body.token;
  });

  afterAll(async () => {
    await rde?.stop();
  });

  const create = (key: string, scope: string, files: object) =>
    api(rde, 'POST', SKILLS, { key, body: { scope, files } });
  const save = (key: string, id: string, files: object) => api(rde, 'PUT', `${SKILLS}/${id}`, { key, body: { files } });
  const get = (key: string, id: string, version?: number) =>
    api(rde, 'GET', `${SKILLS}/${id}${version ? `?version=${version}` : ''}`, { key });
  const review = (key: string, id: string, version: number, decision: 'approve' | 'reject', body?: object) =>
    api(rde, 'POST', `${SKILLS}/${id}/versions/${version}/${decision}`, { key, body });
  const listed = async (key: string) => (await api(rde, 'GET', SKILLS, { key })).body.skills as { id: string }[];
  const teamSkillPending = async () => {
    const name = freshName('team');
    const created = await create(team.member, 'org', packageOf(name));
    expect(created.status).toBe(201);
    return { id: created.body.skill_id as string, name };
  };

  test('a key without a signed-in user is refused on every route with 403, and nothing is created', async () => {
    const { id } = await teamSkillPending();
    const attempts = [
      api(rde, 'GET', SKILLS, { key: anonymous }),
      create(anonymous, 'personal', packageOf(freshName('anon'))),
      get(anonymous, id),
      save(anonymous, id, packageOf('x')),
      review(anonymous, id, 1, 'approve'),
      review(anonymous, id, 1, 'reject'),
      api(rde, 'DELETE', `${SKILLS}/${id}`, { key: anonymous }),
    ];
    for (const response of await Promise.all(attempts)) expect(response.status).toBe(403);
    expect((await api(rde, 'GET', SKILLS, { key: null })).status).toBe(401);
  });

  test('a personal skill is live at once, visible only to its author, and an equal save is changed: false', async () => {
    const name = freshName('mine');
    const created = await create(team.member, 'personal', packageOf(name));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      skill_id: expect.stringMatching(/^skl_/),
      name,
      scope: 'personal',
      version: 1,
      status: 'live',
      changed: true,
    });
    const id = created.body.skill_id;
    const detail = await get(team.member, id);
    expect(detail.body).toMatchObject({
      id,
      name,
      scope: 'personal',
      live_version: 1,
      latest_version: 1,
      pending_version: null,
      draft_by_other: false,
    });
    expect(detail.body.version).toMatchObject({ version: 1, status: 'live', files: packageOf(name) });
    for (const key of [team.owner, other]) {
      expect((await get(key, id)).status).toBe(404);
      expect((await listed(key)).map((skill) => skill.id)).not.toContain(id);
      expect((await save(key, id, packageOf(name, 'theirs'))).status).toBe(404);
    }
    expect((await save(team.member, id, packageOf(name))).body).toMatchObject({
      version: 1,
      status: 'live',
      changed: false,
    });
    const second = await save(team.member, id, packageOf(name, 'Be briefer.'));
    expect(second.body).toMatchObject({ version: 2, status: 'live', changed: true });
    expect((await get(team.member, id)).body).toMatchObject({ live_version: 2, latest_version: 2 });
    expect((await get(team.member, id, 1)).body.version.files).toEqual(packageOf(name));
    expect((await listed(team.member)).map((skill) => skill.id)).toContain(id);
  });

  test("a member's team skill is pending, seen only by its author and the owner; another member cannot save while it waits", async () => {
    const { id, name } = await teamSkillPending();
    expect((await get(team.member, id)).body).toMatchObject({
      live_version: null,
      pending_version: 1,
      draft_by_other: false,
    });
    expect((await get(team.owner, id)).body).toMatchObject({ pending_version: 1, draft_by_other: true });
    expect((await get(other, id)).status).toBe(404);
    expect((await listed(other)).map((skill) => skill.id)).not.toContain(id);
    const blocked = await save(other, id, packageOf(name, 'mine instead'));
    expect(blocked.status).toBe(404);
    const ownerBlocked = await save(team.owner, id, packageOf(name, 'owner edit'));
    expect(ownerBlocked.status).toBe(409);
    expect((await get(team.owner, id)).body).toMatchObject({ latest_version: 1, pending_version: 1 });
  });

  test('the owner approves (with a note): the version goes live for every member; approving again is 409', async () => {
    const { id, name } = await teamSkillPending();
    const approved = await review(team.owner, id, 1, 'approve', { note: 'Looks good' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ skill_id: id, version: 1, status: 'live' });
    const seen = await get(other, id);
    expect(seen.body).toMatchObject({
      live_version: 1,
      pending_version: null,
      version: { status: 'live', note: 'Looks good', files: packageOf(name) },
    });
    expect((await review(team.owner, id, 1, 'approve')).status).toBe(409);
    expect((await review(team.owner, id, 1, 'reject')).status).toBe(409);
    // A member's next version waits; another member's save is 409 while it does.
    expect((await save(team.member, id, packageOf(name, 'v2'))).body).toMatchObject({
      version: 2,
      status: 'pending',
      changed: true,
    });
    expect((await save(other, id, packageOf(name, 'v2 by other'))).status).toBe(409);
    expect((await get(other, id)).body).toMatchObject({
      live_version: 1,
      pending_version: null,
      draft_by_other: true,
      latest_version: 1,
    });
    expect((await get(other, id, 2)).status).toBe(404);
    expect((await get(team.member, id, 2)).body.version).toMatchObject({ status: 'pending' });
  });

  test('only the owner reviews (403 for a member); a rejected version stays with its author and the owner', async () => {
    const { id } = await teamSkillPending();
    expect((await review(team.member, id, 1, 'approve')).status).toBe(403);
    expect((await review(team.member, id, 1, 'reject')).status).toBe(403);
    const rejected = await review(team.owner, id, 1, 'reject', { note: 'Cite sources' });
    expect(rejected.body).toMatchObject({ version: 1, status: 'rejected' });
    expect((await get(team.member, id)).body).toMatchObject({
      live_version: null,
      pending_version: null,
      version: { status: 'rejected', note: 'Cite sources' },
    });
    expect((await get(other, id)).status).toBe(404);
    expect((await review(team.owner, id, 1, 'approve')).status).toBe(409);
    expect((await review(team.owner, id, 9, 'approve')).status).toBe(404);
  });

  test("the owner's own team skill is live at once", async () => {
    const name = freshName('owners');
    const created = await create(team.owner, 'org', packageOf(name));
    expect(created.body).toMatchObject({ version: 1, status: 'live' });
    expect((await get(other, created.body.skill_id)).body).toMatchObject({ live_version: 1 });
  });

  test('a taken name is 409 and stores nothing', async () => {
    const name = freshName('taken');
    expect((await create(team.member, 'personal', packageOf(name))).status).toBe(201);
    const before = (await listed(team.owner)).length;
    const again = await create(team.owner, 'org', packageOf(name));
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain(name);
    expect((await listed(team.owner)).length).toBe(before);
  });

  test.each([
    ['no SKILL.md', { 'README.md': 'hello' }, /SKILL\.md/],
    ['no frontmatter', { 'SKILL.md': '# just text' }, /frontmatter/],
    ['a bad name', { 'SKILL.md': '---\nname: Bad_Name\ndescription: d\n---\n' }, /name/],
    [
      'a description over 1024 characters',
      { 'SKILL.md': `---\nname: long\ndescription: ${'x'.repeat(1025)}\n---\n` },
      /description/,
    ],
    ['a .. path', packageOf('dots', 'x', { '../escape.md': 'x' }), /\.\./],
    ['an absolute path', packageOf('abs', 'x', { '/etc/passwd': 'x' }), /absolute/],
    ['a backslash', packageOf('back', 'x', { 'a\\b.md': 'x' }), /backslash/],
    ['a NUL in a path', packageOf('nul', 'x', { 'a\u0000.md': 'x' }), /NUL/],
    ['binary content', packageOf('bin', 'x', { 'blob.bin': '\u0000\u0001\u0002' }), /not text/],
    ['a file over 256 KiB', packageOf('big', 'x', { 'big.md': 'x'.repeat(256 * 1024 + 1) }), /bytes/],
    [
      'more than 50 files',
      packageOf('many', 'x', Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}.md`, 'x']))),
      /50 files/,
    ],
  ])('a package with %s is 400 with the reason in detail, and nothing is stored', async (_what, files, reason) => {
    const before = (await listed(team.owner)).length;
    const response = await create(team.owner, 'personal', files);
    expect(response.status).toBe(400);
    expect(response.body.detail).toMatch(reason);
    expect((await listed(team.owner)).length).toBe(before);
  });

  test('an invalid save is 400 and the skill keeps its versions; a save may not rename the skill', async () => {
    const name = freshName('keep');
    const id = (await create(team.member, 'personal', packageOf(name))).body.skill_id;
    expect((await save(team.member, id, { 'notes.md': 'x' })).status).toBe(400);
    expect((await save(team.member, id, packageOf(freshName('renamed')))).status).toBe(400);
    expect((await get(team.member, id)).body).toMatchObject({ latest_version: 1, live_version: 1 });
  });

  test('DELETE answers {ok: true, deleted}; a member cannot delete another member’s team skill (403); a deleted skill is 404', async () => {
    const { id } = await teamSkillPending();
    await review(team.owner, id, 1, 'approve');
    expect((await api(rde, 'DELETE', `${SKILLS}/${id}`, { key: other })).status).toBe(403);
    const deleted = await api(rde, 'DELETE', `${SKILLS}/${id}`, { key: team.owner });
    expect(deleted.body).toEqual({ ok: true, deleted: id });
    expect((await get(team.member, id)).status).toBe(404);
    expect((await api(rde, 'DELETE', `${SKILLS}/${id}`, { key: team.owner })).status).toBe(404);
  });

  test('the list shows the spec fields and trial_expires_at null', async () => {
    const { id } = await teamSkillPending();
    const body = (await api(rde, 'GET', SKILLS, { key: team.owner })).body;
    expect(body.trial_expires_at).toBeNull();
    expect(body.skills.find((skill: { id: string }) => skill.id === id)).toEqual({
      id,
      name: expect.any(String),
      scope: 'org',
      description: expect.stringContaining('How the team handles'),
      author_user_id: team.memberId,
      live_version: null,
      latest_version: 1,
      pending_version: 1,
      draft_by_other: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  test('two owners approving at once leave one outcome: one 200, one 409', async () => {
    const { id } = await teamSkillPending();
    const answers = await Promise.all([review(team.owner, id, 1, 'approve'), review(team.owner, id, 1, 'reject')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.status === 200)!.body.status;
    expect((await get(team.owner, id)).body.version.status).toBe(winner);
  });

  test('a save racing an approval: the approval and the new version both land in one order, never a lost version', async () => {
    const { id, name } = await teamSkillPending();
    const [approved, saved] = await Promise.all([
      review(team.owner, id, 1, 'approve'),
      save(team.member, id, packageOf(name, 'racing')),
    ]);
    expect(saved.status).toBe(200);
    const detail = (await get(team.owner, id)).body;
    const statuses = Object.fromEntries(
      detail.versions.map((v: { version: number; status: string }) => [v.version, v.status]),
    );
    if (approved.status === 200) expect(statuses).toEqual({ 1: 'live', 2: 'pending' });
    else {
      expect(approved.status).toBe(409);
      expect(statuses).toEqual({ 1: 'withdrawn', 2: 'pending' });
    }
    expect(detail.pending_version).toBe(2);
  });

  test("MCP: list_workspace_skills lists the team's live skills, get_workspace_skill reads one with its files", async () => {
    const live = await teamSkillPending();
    await review(team.owner, live.id, 1, 'approve');
    const waiting = await teamSkillPending();
    const client = await mcpClient(rde, other);
    try {
      const listedByTool = await client.callTool({ name: 'list_workspace_skills', arguments: {} });
      const ids = (listedByTool.structuredContent as { skills: { id: string }[] }).skills.map((skill) => skill.id);
      expect(ids).toContain(live.id);
      expect(ids).not.toContain(waiting.id);
      const read = await client.callTool({ name: 'get_workspace_skill', arguments: { skill_id: live.id } });
      expect(read.isError).not.toBe(true);
      expect(read.structuredContent).toMatchObject({
        id: live.id,
        live_version: 1,
        version: { files: packageOf(live.name) },
      });
      const hidden = await client.callTool({ name: 'get_workspace_skill', arguments: { skill_id: waiting.id } });
      expect(hidden.isError).toBe(true);
    } finally {
      await client.close();
    }
    const anonymousClient = await mcpClient(rde, anonymous);
    try {
      const refused = await anonymousClient.callTool({ name: 'list_workspace_skills', arguments: {} });
      expect(refused.isError).toBe(true);
    } finally {
      await anonymousClient.close();
    }
  });

  test('the 201st skill of a workspace is 409', async () => {
    const crowded = await newTeam(rde, 'skills-full');
    for (let batch = 0; batch < 200; batch += 25) {
      const creates = Array.from({ length: 25 }, (_, i) =>
        create(crowded.owner, 'personal', packageOf(`s-${batch + i}`)),
      );
      for (const response of await Promise.all(creates)) expect(response.status).toBe(201);
    }
    const overflow = await create(crowded.owner, 'personal', packageOf('one-too-many'));
    expect(overflow.status).toBe(409);
    expect(overflow.body.detail).toContain('200');
  });
});
