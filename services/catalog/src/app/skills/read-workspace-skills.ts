import type { Caller } from '@rde/platform';
import type { SkillFiles } from '../../domain/skills/package';
import {
  assertVisible,
  versionToShow,
  visibleVersions,
  type Actor,
  type VersionMeta,
} from '../../domain/skills/workspace-skill';
import type { WorkspaceSkillDocument } from '../../store/workspace-skills';
import { actorOf, type WorkspaceSkillDependencies } from './workspace-skill-access';

/** A skill as one caller may see it: only the versions visible to them count. */
export interface SkillSeen {
  readonly skill: WorkspaceSkillDocument;
  readonly versions: VersionMeta[];
  readonly actor: Actor;
}

/** The workspace's custom skills the caller can see. */
export async function listWorkspaceSkills(deps: WorkspaceSkillDependencies, caller: Caller): Promise<SkillSeen[]> {
  const actor = actorOf(caller);
  return (await deps.skills.listIn(caller.workspaceId))
    .map((skill) => ({ skill, versions: visibleVersions(skill, actor), actor }))
    .filter((seen) => seen.versions.length > 0);
}

/** One custom skill at a version (0: the live one), with that version's files. */
export async function getWorkspaceSkill(
  deps: WorkspaceSkillDependencies,
  caller: Caller,
  skillId: string,
  version: number,
): Promise<SkillSeen & { shown: VersionMeta; files: SkillFiles }> {
  const actor = actorOf(caller);
  const skill = await deps.skills.find(caller.workspaceId, skillId);
  assertVisible(skill, actor);
  const shown = versionToShow(skill, actor, version);
  return {
    skill,
    versions: visibleVersions(skill, actor),
    actor,
    shown,
    files: await deps.skills.filesOf(shown.files_id),
  };
}
