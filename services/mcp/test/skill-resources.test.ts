import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { createLogger, errors, type Caller } from '@rde/platform';
import type { ToolClients } from '../src/clients';
import { MODERN_REVISION } from '../src/app/json-exchange';
import { createEndpoint } from '../src/app/mcp-handler';
import { createSkillResources } from '../src/app/skill-resources';

const CALLER = { workspaceId: 'ws_skills', userId: 'usr_skills', requestId: 'req_skills' } as Caller;
const ENVELOPE = {
  [PROTOCOL_VERSION_META_KEY]: MODERN_REVISION,
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const manifest = (name: string, description = `About ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;
const customSkill = (name: string) => ({
  id: `skl_${name}`,
  name,
  scope: 'org',
  description: `About ${name}.`,
  liveVersion: 1,
});

/**
 * The skill source's own edges, with catalog's SkillService stubbed: what the spec suite cannot
 * arrange through the public interface (a skill deleted between two RPCs, content only catalog's
 * parser accepts, a changed public catalog).
 */
function served(skills: Record<string, unknown>) {
  const warnings: string[] = [];
  const logger = createLogger('test', 'silent');
  logger.warn = (({ path }: { path: string }, message: string) => warnings.push(`${path}: ${message}`)) as never;
  const clients = { skills } as unknown as ToolClients;
  const endpoint = createEndpoint(clients, createSkillResources(clients, logger));
  const call = async (method: string, params: Record<string, unknown> = {}) => {
    const body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: ENVELOPE } };
    const headers = new Map([
      ['content-type', 'application/json'],
      ['accept', 'application/json, text/event-stream'],
      ['mcp-protocol-version', MODERN_REVISION],
      ['mcp-method', method],
    ]);
    const exchange = {
      method: 'POST',
      url: 'http://127.0.0.1/api/v2/mcp',
      headers,
      body: Buffer.from(JSON.stringify(body)),
      parsedBody: body,
    };
    return JSON.parse((await endpoint.serve(exchange, CALLER)).body.toString('utf8'));
  };
  return { call, warnings, close: () => endpoint.close() };
}

const noPublicSkills = { getSkillCatalog: async () => ({ skills: [], sha256: 'empty' }) };

test('a custom skill deleted between the listing and its read is left out, not an error', async () => {
  const { call, close } = served({
    ...noPublicSkills,
    listWorkspaceSkills: async () => ({ skills: [customSkill('kept'), customSkill('gone')] }),
    getWorkspaceSkill: async ({ skillId }: { skillId: string }) => {
      if (skillId === 'skl_gone') throw errors.notFound('Skill not found');
      return { version: { files: { 'SKILL.md': manifest('kept') } } };
    },
  });
  const answer = await call('skills/list');
  expect(answer.result.skills.map((skill: { uri: string }) => skill.uri)).toEqual(['skill://workspace/kept/SKILL.md']);
  await close();
});

test('a custom skill whose frontmatter the SDK cannot read is left out of skills/list with a warning', async () => {
  const { call, warnings, close } = served({
    ...noPublicSkills,
    listWorkspaceSkills: async () => ({ skills: [customSkill('odd')] }),
    // An anchor: catalog's YAML parser reads it, the SDK's frontmatter subset refuses it.
    getWorkspaceSkill: async () => ({ version: { files: { 'SKILL.md': manifest('odd', '&anchor About odd.') } } }),
  });
  expect((await call('skills/list')).result.skills).toEqual([]);
  expect(warnings).toEqual([expect.stringMatching(/^skill:\/\/workspace\/odd\/SKILL\.md: .*anchors/s)]);
  await close();
});

test("the public skills' entries are built once per catalog version, and again when it changes", async () => {
  let version = 'v1';
  let reads = 0;
  const { call, close } = served({
    getSkillCatalog: async () => ({
      skills: [{ name: 'rde', description: 'About rde.', digest: '', files: ['SKILL.md'] }],
      sha256: version,
    }),
    getSkillFile: async () => {
      reads++;
      return { content: Buffer.from(manifest('rde', `Version ${version}.`)) };
    },
    listWorkspaceSkills: async () => ({ skills: [] }),
  });
  const descriptions = async () =>
    (await call('skills/list')).result.skills.map(
      (skill: { frontmatter: { description: string } }) => skill.frontmatter.description,
    );
  expect(await descriptions()).toEqual(['Version v1.']);
  expect(await descriptions()).toEqual(['Version v1.']);
  expect(reads).toBe(1);
  version = 'v2';
  expect(await descriptions()).toEqual(['Version v2.']);
  expect(reads).toBe(2);
  await close();
});
