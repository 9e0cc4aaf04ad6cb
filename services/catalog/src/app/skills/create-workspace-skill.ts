import { errors, type Caller } from '@rde/platform';
import type { SkillFiles } from '../../domain/skills/package';
import { decideSave, type SkillScope } from '../../domain/skills/workspace-skill';
import type { WorkspaceSkillDocument } from '../../store/workspace-skills';
import {
  actorOf,
  newFilesId,
  newSkillId,
  packageDigest,
  SKILLS_PER_WORKSPACE,
  validPackage,
  type WorkspaceSkillDependencies,
} from './workspace-skill-access';
import type { SaveResult } from './save-workspace-skill';

/** A new custom skill: version 1, live (personal, or the owner's team skill) or pending. */
export async function createWorkspaceSkill(
  deps: WorkspaceSkillDependencies,
  caller: Caller,
  scope: string,
  files: SkillFiles,
): Promise<SaveResult> {
  const actor = actorOf(caller);
  if (scope !== 'personal' && scope !== 'org') {
    throw errors.badRequest({ detail: 'Invalid skill package: scope must be personal or org' });
  }
  const manifest = validPackage(files);
  const now = deps.clock.now();
  const skillId = newSkillId();
  const filesId = newFilesId();
  const empty = {
    scope: scope as SkillScope,
    author_user_id: actor.userId,
    versions: [],
    live_version: null,
    pending_version: null,
  };
  const decision = decideSave(empty, actor, {
    author_user_id: actor.userId,
    created_at_ms: now,
    description: manifest.description,
    digest: packageDigest(files),
    files_id: filesId,
  });
  if (!(await deps.skills.takePlace(caller.workspaceId, SKILLS_PER_WORKSPACE))) {
    throw errors.conflict({ detail: `The workspace already has ${SKILLS_PER_WORKSPACE} skills` });
  }
  await deps.skills.saveFiles(filesId, skillId, files);
  const skill: WorkspaceSkillDocument = {
    ...empty,
    ...decision,
    _id: skillId,
    workspace_id: caller.workspaceId,
    name: manifest.name,
    revision: 1,
    created_at_ms: now,
    updated_at_ms: now,
  };
  if (!(await deps.skills.insert(skill))) {
    await Promise.all([deps.skills.givePlaceBack(caller.workspaceId), deps.skills.dropFiles(filesId)]);
    throw errors.conflict({ detail: `A skill named ${manifest.name} already exists in this workspace` });
  }
  return { skillId, name: manifest.name, scope: skill.scope, version: 1, status: decision.status, changed: true };
}
