import type { Caller } from '@rde/platform';
import type { catalogSkills } from '@rde/proto';
import { skillEntry, type Skill } from '@modelcontextprotocol/server/ext/skills';
import type { ToolClients } from '../../clients';
import { SKILLS_BASE_URI, skillFolderOf } from '../../domain/skill-uris';
import { absentWhen } from './refusals';

/** RDE's own skill packages (served by catalog) as the Skills extension lists and reads them. */
export interface PublicSkills {
  /** The packages' names and descriptions. */
  summaries(caller: Caller): Promise<catalogSkills.PublicSkill[]>;
  /** Each package's entry (every file's URI, digest and size), by name. */
  entries(caller: Caller): Promise<ReadonlyMap<string, Skill>>;
  /** One file's bytes; undefined when the package has no such file. */
  file(caller: Caller, name: string, path: string): Promise<Uint8Array | undefined>;
}

/**
 * The entries are built once per catalog version (its content hash), so listing costs one RPC while
 * the packages stay the same; every file is read from catalog, looked up in the package's own list.
 */
export function publicSkills(clients: ToolClients): PublicSkills {
  let built: { sha256: string; entries: Promise<ReadonlyMap<string, Skill>> } | undefined;
  const read = async (caller: Caller, name: string, path: string) =>
    (await clients.skills.getSkillFile({ name, path }, { caller })).content;

  async function entriesOf(caller: Caller, skills: readonly catalogSkills.PublicSkill[]) {
    const entries = await Promise.all(
      skills.map(async (skill) => {
        const contents = await Promise.all(
          skill.files.map(async (path) => [path, await read(caller, skill.name, path)] as const),
        );
        const files = Object.fromEntries(contents);
        return [
          skill.name,
          await skillEntry(skillFolderOf('rde', skill.name), files, { baseUri: SKILLS_BASE_URI }),
        ] as const;
      }),
    );
    return new Map(entries);
  }

  return {
    async summaries(caller) {
      return (await clients.skills.getSkillCatalog({}, { caller })).skills;
    },
    async entries(caller) {
      const catalog = await clients.skills.getSkillCatalog({}, { caller });
      if (built?.sha256 !== catalog.sha256) {
        built = { sha256: catalog.sha256, entries: entriesOf(caller, catalog.skills) };
        // A failed build is not kept: the next listing tries again.
        const failed = built;
        failed.entries.catch(() => built === failed && (built = undefined));
      }
      return built.entries;
    },
    file: (caller, name, path) => absentWhen([404], () => read(caller, name, path)),
  };
}
