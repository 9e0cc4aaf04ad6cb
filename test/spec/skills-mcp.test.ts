import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { api } from '../e2e/api';
import { mode, startRde, type RunningRde } from '../e2e/harness';
import { mcpClient } from '../e2e/mcp-client';
import { newTeam, type Team } from '../e2e/teams';

jest.setTimeout(180_000);

const SKILLS = '/api/v2/workspace/skills';
const packageOf = (name: string, body = 'Be brief.') => ({
  'SKILL.md': `---\nname: ${name}\ndescription: How the team handles ${name}.\n---\n\n# ${name}\n\n${body}\n`,
  'references/notes.md': `Notes on ${name}.\n`,
});
let counter = 0;
const freshName = (tag: string) => `${tag}-${Date.now().toString(36)}-${++counter}`;

interface IndexedSkill {
  name: string;
  files: string[];
}

/**
 * RDE's own skills and each workspace's live custom skills as MCP resources (issue 26, decision 0080):
 * the Skills extension's `skill://` URIs, read through the official SDK client, and held against the
 * discovery routes (public skills) and the custom-skill routes (visibility).
 */
describe(`spec: skills as MCP resources (${mode})`, () => {
  let rde: RunningRde;
  let team: Team;
  /** A second member of the team, and a key of another workspace. */
  let other: string;
  let outsider: string;
  /** A legacy anonymous CLI approval's bearer: a key that belongs to no signed-in user. */
  let anonymous: string;
  let index: IndexedSkill[];
  const clients: Client[] = [];

  beforeAll(async () => {
    rde = await startRde();
    team = await newTeam(rde, 'skills-mcp');
    const added = await rde.admin([
      'add-member',
      '--workspace',
      team.workspaceId,
      '--email',
      `mcp.other.${Date.now()}@example.com`,
    ]);
    other = JSON.parse(added).key;
    outsider = (await newTeam(rde, 'skills-mcp-outside')).owner;
    const claim = (await api(rde, 'POST', '/api/v2/auth/cli/start', { key: null })).body.claim_id;
    await api(rde, 'POST', `/api/v2/auth/cli/claim/${claim}`, { key: null, body: {} });
    anonymous = (await api(rde, 'GET', `/api/v2/auth/cli/poll/${claim}`, { key: null })).body.token;
    index = (await api(rde, 'GET', '/.well-known/skills/index.json', { key: null })).body.skills;
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await rde?.stop();
  });

  /** The current revision, or (`legacy`) the 2025-era handshake most clients in use still make. */
  async function connect(key: string, era: 'current' | 'legacy' = 'current') {
    const client = await mcpClient(rde, key, { mode: era === 'legacy' ? 'legacy' : { pin: '2026-07-28' } });
    clients.push(client);
    return client;
  }
  const uris = async (client: Client) => (await client.listResources()).resources.map((resource) => resource.uri);
  const textOf = async (client: Client, uri: string) => {
    const [content] = (await client.readResource({ uri })).contents;
    return content && 'text' in content ? content.text : undefined;
  };
  /** The JSON-RPC error a read is refused with. */
  const refusalOf = async (client: Client, uri: string) => {
    try {
      await client.readResource({ uri });
    } catch (error) {
      if (error instanceof ProtocolError) return { code: error.code, data: error.data };
      throw error;
    }
    throw new Error(`${uri} was read`);
  };
  const liveSkill = async (key: string, scope: 'personal' | 'org', tag: string) => {
    const name = freshName(tag);
    const created = await api(rde, 'POST', SKILLS, { key, body: { scope, files: packageOf(name) } });
    expect(created.body).toMatchObject({ status: 'live' });
    return { id: created.body.skill_id as string, name };
  };

  test.each(['current', 'legacy'] as const)(
    'a %s client sees that the server declares resources and the Skills extension, and resources/list names every public skill by its SKILL.md',
    async (era) => {
      const client = await connect(team.member, era);
      if (era === 'legacy') expect(client.getNegotiatedProtocolVersion()).not.toBe('2026-07-28');
      expect(client.getServerCapabilities()).toMatchObject({
        resources: { listChanged: false },
        extensions: { 'io.modelcontextprotocol/skills': {} },
      });
      const { resources } = await client.listResources();
      for (const { name } of index) {
        expect(resources).toContainEqual(
          expect.objectContaining({ uri: `skill://rde/${name}/SKILL.md`, name, mimeType: 'text/markdown' }),
        );
      }
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['skill://{+path}']);
    },
  );

  test('every file of every public skill reads as the text the discovery file route serves', async () => {
    const client = await connect(team.member);
    for (const { name, files } of index) {
      for (const file of files) {
        const served = await api(rde, 'GET', `/.well-known/skills/${name}/${file}`, { key: null });
        expect({ file: `${name}/${file}`, text: await textOf(client, `skill://rde/${name}/${file}`) }).toEqual({
          file: `${name}/${file}`,
          text: served.text,
        });
      }
    }
  });

  test("skills/list and skills/get give each public skill's files with digests the SDK's skills client verifies", async () => {
    const skills = new SkillsClient(await connect(team.member));
    const { skills: entries } = await skills.list();
    for (const { name, files } of index) {
      const entry = entries.find((skill) => skill.uri === `skill://rde/${name}/SKILL.md`)!;
      expect(entry.frontmatter.name).toBe(name);
      expect(entry.resources).not.toBe('dynamic');
      expect((entry.resources as { uri: string }[]).map((resource) => resource.uri).sort()).toEqual(
        files.map((file) => `skill://rde/${name}/${file}`).sort(),
      );
      for (const file of files) expect((await skills.read(entry, file)).verified).toBe(true);
      expect((await skills.get(entry.uri)).skill).toEqual(entry);
    }
  });

  test("a workspace's live custom skills are its members' resources: a team skill for all, a personal one for its author", async () => {
    const teamSkill = await liveSkill(team.owner, 'org', 'team-live');
    const personal = await liveSkill(team.member, 'personal', 'mine');
    const teamUri = `skill://workspace/${teamSkill.name}/SKILL.md`;
    const personalUri = `skill://workspace/${personal.name}/SKILL.md`;

    const author = await connect(team.member);
    expect(await uris(author)).toEqual(expect.arrayContaining([teamUri, personalUri]));
    expect(await textOf(author, personalUri)).toBe(packageOf(personal.name)['SKILL.md']);
    expect(await textOf(author, `skill://workspace/${teamSkill.name}/references/notes.md`)).toBe(
      packageOf(teamSkill.name)['references/notes.md'],
    );
    const verified = new SkillsClient(author);
    const { skill } = await verified.get(teamUri);
    expect((await verified.read(skill, 'references/notes.md')).verified).toBe(true);

    const colleague = await connect(other);
    expect(await uris(colleague)).toContain(teamUri);
    expect(await uris(colleague)).not.toContain(personalUri);
    expect(await refusalOf(colleague, personalUri)).toEqual({ code: -32602, data: { uri: personalUri } });

    const stranger = await connect(outsider);
    expect((await uris(stranger)).filter((uri) => uri.startsWith('skill://workspace/'))).toEqual([]);
    expect(await refusalOf(stranger, teamUri)).toEqual({ code: -32602, data: { uri: teamUri } });
  });

  test('a pending team version is not served; the live one is, and an approved new version replaces it', async () => {
    const name = freshName('pending');
    const created = await api(rde, 'POST', SKILLS, {
      key: team.member,
      body: { scope: 'org', files: packageOf(name) },
    });
    expect(created.body.status).toBe('pending');
    const uri = `skill://workspace/${name}/SKILL.md`;
    const colleague = await connect(other);
    expect(await uris(colleague)).not.toContain(uri);
    expect(await refusalOf(colleague, uri)).toEqual({ code: -32602, data: { uri } });

    const id = created.body.skill_id;
    await api(rde, 'POST', `${SKILLS}/${id}/versions/1/approve`, { key: team.owner });
    expect(await textOf(colleague, uri)).toBe(packageOf(name)['SKILL.md']);
    await api(rde, 'PUT', `${SKILLS}/${id}`, { key: team.member, body: { files: packageOf(name, 'Second.') } });
    expect(await textOf(colleague, uri)).toBe(packageOf(name)['SKILL.md']);
    await api(rde, 'POST', `${SKILLS}/${id}/versions/2/approve`, { key: team.owner });
    expect(await textOf(colleague, uri)).toBe(packageOf(name, 'Second.')['SKILL.md']);
  });

  test('skills/list pages through a workspace with more custom skills than one page holds, each once', async () => {
    const crowded = await newTeam(rde, 'skills-mcp-many');
    const names = Array.from({ length: 30 }, (_, i) => `many-${String(i).padStart(2, '0')}`);
    const created = await Promise.all(
      names.map((name) =>
        api(rde, 'POST', SKILLS, { key: crowded.owner, body: { scope: 'personal', files: packageOf(name) } }),
      ),
    );
    expect(created.map((response) => response.status)).toEqual(names.map(() => 201));
    const client = await connect(crowded.owner);
    // One page, as it comes (the SDK's `request` takes a Standard Schema for a method it does not know).
    const asIs = {
      '~standard': { version: 1, vendor: 'rde-test', validate: (value: unknown) => ({ value }) },
    } as const;
    const firstPage = (await client.request({ method: 'skills/list', params: {} }, asIs)) as {
      skills: unknown[];
      nextCursor?: string;
    };
    expect(firstPage.nextCursor).toEqual(expect.any(String));
    expect(firstPage.skills.length).toBeLessThan(index.length + names.length);
    const { skills } = await new SkillsClient(client).list();
    expect(skills.map((skill) => skill.uri)).toEqual([
      ...index.map(({ name }) => `skill://rde/${name}/SKILL.md`),
      ...names.map((name) => `skill://workspace/${name}/SKILL.md`),
    ]);
  });

  test('a key without a signed-in user gets the public skills and no custom ones', async () => {
    const teamSkill = await liveSkill(team.owner, 'org', 'not-anonymous');
    const client = await connect(anonymous);
    const listed = await uris(client);
    expect(listed).toEqual(index.map(({ name }) => `skill://rde/${name}/SKILL.md`));
    const uri = `skill://workspace/${teamSkill.name}/SKILL.md`;
    expect(await refusalOf(client, uri)).toEqual({ code: -32602, data: { uri } });
    expect((await new SkillsClient(client).list()).skills.map((skill) => skill.uri)).toEqual(listed);
  });

  test('a URI that names no skill file is -32602 with the URI in data, and reads nothing outside a package', async () => {
    const client = await connect(team.member);
    const [first] = index;
    const refused = [
      'test://nonexistent-resource',
      'skill://rde/no-such-skill/SKILL.md',
      `skill://rde/${first!.name}/no-such-file.md`,
      `skill://rde/${first!.name}`,
      `skill://rde/${first!.name}/`,
      `skill://rde/${first!.name}/SKILL.md?version=1`,
      `skill://rde/${first!.name}/%2e%2e/%2e%2e/package.json`,
      `skill://rde/${first!.name}/..%2f..%2fpackage.json`,
      `skill://rde/${first!.name}/references%5c..%5c..%5cpackage.json`,
      `skill://rde/${first!.name}/SKILL.md%00`,
      'skill://rde/%2e%2e/catalog/package.json',
      `skill://elsewhere/${first!.name}/SKILL.md`,
      `skill://workspace/${first!.name}/SKILL.md`,
    ];
    // The error names the URI in its canonical form (WHATWG: `%2e%2e` segments resolved).
    for (const uri of refused) {
      expect({ uri, ...(await refusalOf(client, uri)) }).toEqual({
        uri,
        code: -32602,
        data: { uri: new URL(uri).href },
      });
    }
  });
});
