import { errors, type Caller } from '@rde/platform';
import { assertMayDelete, assertVisible } from '../../domain/skills/workspace-skill';
import { actorOf, type WorkspaceSkillDependencies } from './workspace-skill-access';

/** Deletes a custom skill with every version; its place in the workspace's limit is freed. */
export async function deleteWorkspaceSkill(
  deps: WorkspaceSkillDependencies,
  caller: Caller,
  skillId: string,
): Promise<void> {
  const actor = actorOf(caller);
  const skill = await deps.skills.find(caller.workspaceId, skillId);
  assertVisible(skill, actor);
  assertMayDelete(skill, actor);
  if (!(await deps.skills.delete(caller.workspaceId, skillId))) throw errors.notFound('Skill not found');
  await deps.skills.givePlaceBack(caller.workspaceId);
}
