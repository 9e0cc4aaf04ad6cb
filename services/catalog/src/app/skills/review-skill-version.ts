import { errors, type Caller } from '@rde/platform';
import { assertVisible, decideReview } from '../../domain/skills/workspace-skill';
import type { SaveResult } from './save-workspace-skill';
import { actorOf, withGuardedWrite, type WorkspaceSkillDependencies } from './workspace-skill-access';

/** The owner approves or rejects a pending team version, with an optional note. */
export async function reviewSkillVersion(
  deps: WorkspaceSkillDependencies,
  caller: Caller,
  request: { skillId: string; version: number; decision: string; note: string },
): Promise<SaveResult> {
  const actor = actorOf(caller);
  const { skillId, version, decision, note } = request;
  if (decision !== 'approve' && decision !== 'reject')
    throw errors.badRequest({ detail: 'decision must be approve or reject' });
  return withGuardedWrite(deps, caller, skillId, async (skill) => {
    assertVisible(skill, actor);
    const next = decideReview(skill, actor, version, decision, note);
    const { versions, live_version, pending_version } = next;
    const written = await deps.skills.update(skill, {
      versions,
      live_version,
      pending_version,
      updated_at_ms: deps.clock.now(),
    });
    return {
      written,
      answer: { skillId, name: skill.name, scope: skill.scope, version, status: next.status, changed: true },
    };
  });
}
