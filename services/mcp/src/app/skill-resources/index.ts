import type { Caller, Logger } from '@rde/platform';
import type { McpServer, Resource } from '@modelcontextprotocol/server';
import {
  SkillCatalogError,
  SkillsExtension,
  type Skill,
  type SkillReadResult,
  type SkillSource,
} from '@modelcontextprotocol/server/ext/skills';
import type { ToolClients } from '../../clients';
import { MANIFEST, manifestUriOf, mimeTypeOf, skillFileAt, type SkillOrigin } from '../../domain/skill-uris';
import { publicSkills, type PublicSkills } from './public-skills';
import { workspaceSkills, type WorkspaceSkills } from './workspace-skills';

/** Workspace skills per `skills/list` page: each costs one read of its live version. */
const PAGE_SIZE = 25;

/** Serves the skills as MCP resources on a request's server (decision 0080). */
export interface SkillResources {
  attach(mcp: McpServer, caller: Caller): void;
}

/**
 * RDE's public skills and the caller's workspace's live custom skills, through the SDK's Skills
 * extension (SEP-2640): `resources/list` (each skill's SKILL.md), `resources/templates/list`
 * (`skill://{+path}`), `resources/read` of any file, and `skills/list` / `skills/get` with every
 * file's digest. The extension is bound to the request's caller: custom skills never leave their
 * workspace, and each caller sees only what the REST routes would show them.
 */
export function createSkillResources(clients: ToolClients, logger: Logger): SkillResources {
  const sources = { public: publicSkills(clients), workspace: workspaceSkills(clients) };
  const onWarning = ({ path, message }: { path: string; message: string }) =>
    logger.warn({ path }, `skills: ${message}`);
  return {
    attach(mcp, caller) {
      new SkillsExtension({ source: skillSource(sources, caller, onWarning), onWarning }).attach(mcp);
    },
  };
}

interface Sources {
  readonly public: PublicSkills;
  readonly workspace: WorkspaceSkills;
}
type Warn = (warning: { path: string; message: string }) => void;

function skillSource(sources: Sources, caller: Caller, warn: Warn): SkillSource {
  /** A custom skill's entry, or undefined (with a warning) when its content is not a valid entry for the SDK. */
  const workspaceEntry = async (skill: Awaited<ReturnType<WorkspaceSkills['live']>>[number]) => {
    try {
      return await sources.workspace.entry(caller, skill);
    } catch (error) {
      if (!(error instanceof SkillCatalogError)) throw error;
      warn({ path: manifestUriOf('workspace', skill.name), message: `not served: ${error.message}` });
      return undefined;
    }
  };
  const served = (skills: (Skill | undefined)[]) => skills.filter((skill): skill is Skill => skill !== undefined);

  return {
    // The public skills open the first page; the cursor is the last custom skill's name.
    async list({ cursor }) {
      const publicPart = cursor === undefined ? [...(await sources.public.entries(caller)).values()] : [];
      const rest = (await sources.workspace.live(caller)).filter(
        (skill) => cursor === undefined || skill.name > cursor,
      );
      const page = rest.slice(0, PAGE_SIZE);
      const skills = [...publicPart, ...served(await Promise.all(page.map(workspaceEntry)))];
      return rest.length > PAGE_SIZE ? { skills, nextCursor: page.at(-1)!.name } : { skills };
    },

    async get(uri) {
      const address = skillFileAt(uri);
      if (address?.path !== MANIFEST) return undefined;
      if (address.origin === 'rde') return (await sources.public.entries(caller)).get(address.name);
      const skill = await sources.workspace.named(caller, address.name);
      return skill && workspaceEntry(skill);
    },

    async read(uri): Promise<SkillReadResult | undefined> {
      const address = skillFileAt(uri);
      if (address === undefined) return undefined;
      const mimeType = mimeTypeOf(address.path);
      if (address.origin === 'rde') {
        const bytes = await sources.public.file(caller, address.name, address.path);
        return bytes && { text: Buffer.from(bytes).toString('utf8'), mimeType };
      }
      const skill = await sources.workspace.named(caller, address.name);
      const files = skill && (await sources.workspace.files(caller, skill));
      return files && Object.hasOwn(files, address.path) ? { text: files[address.path]!, mimeType } : undefined;
    },

    async listResources() {
      const [own, custom] = await Promise.all([sources.public.summaries(caller), sources.workspace.live(caller)]);
      return [...own.map(listed('rde')), ...custom.map(listed('workspace'))];
    },
  };
}

/** A skill as `resources/list` shows it: its SKILL.md. */
const listed =
  (origin: SkillOrigin) =>
  ({ name, description }: { name: string; description: string }): Resource => ({
    uri: manifestUriOf(origin, name),
    name,
    description,
    mimeType: 'text/markdown',
  });
