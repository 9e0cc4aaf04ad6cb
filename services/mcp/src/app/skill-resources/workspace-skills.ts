import type { Caller } from '@rde/platform';
import type { catalogSkills } from '@rde/proto';
import { skillEntry, type Skill } from '@modelcontextprotocol/server/ext/skills';
import type { ToolClients } from '../../clients';
import { SKILLS_BASE_URI, skillFolderOf } from '../../domain/skill-uris';
import { absentWhen } from './refusals';

type LiveSkill = catalogSkills.WorkspaceSkill & { liveVersion: number };

/**
 * The caller's workspace's custom skills as the Skills extension serves them: only live versions, and
 * only the skills the caller may see (catalog's rules: a personal skill is its author's, a team skill
 * every member's). A key without a signed-in user sees none.
 */
export interface WorkspaceSkills {
  /** The live skills the caller may see, sorted by name. */
  live(caller: Caller): Promise<LiveSkill[]>;
  /** One of them by name. */
  named(caller: Caller, name: string): Promise<LiveSkill | undefined>;
  /** Its live version's files, path to text; undefined once it is gone (deleted meanwhile). */
  files(caller: Caller, skill: LiveSkill): Promise<Record<string, string> | undefined>;
  /** Its entry (every file's URI, digest and size); undefined once it is gone. */
  entry(caller: Caller, skill: LiveSkill): Promise<Skill | undefined>;
}

export function workspaceSkills(clients: ToolClients): WorkspaceSkills {
  const live = async (caller: Caller) => {
    const listed = await absentWhen([403], () => clients.skills.listWorkspaceSkills({}, { caller }));
    return (listed?.skills ?? [])
      .filter((skill): skill is LiveSkill => skill.liveVersion !== undefined)
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  };
  const files = async (caller: Caller, skill: LiveSkill) => {
    const request = { skillId: skill.id, version: skill.liveVersion };
    const detail = await absentWhen([404], () => clients.skills.getWorkspaceSkill(request, { caller }));
    return detail && (detail.version?.files ?? {});
  };
  return {
    live,
    async named(caller, name) {
      return (await live(caller)).find((skill) => skill.name === name);
    },
    files,
    async entry(caller, skill) {
      const contents = await files(caller, skill);
      const folder = skillFolderOf('workspace', skill.name);
      return contents && skillEntry(folder, contents, { baseUri: SKILLS_BASE_URI });
    },
  };
}
