import { errors, type Caller } from '@rde/platform';
import type { SkillFiles } from '../../domain/skills/package';
import { assertVisible, decideSave, type VersionStatus } from '../../domain/skills/workspace-skill';
import {
  actorOf,
  newFilesId,
  packageDigest,
  validPackage,
  withGuardedWrite,
  type WorkspaceSkillDependencies,
} from './workspace-skill-access';

export interface SaveResult {
  readonly skillId: string;
  readonly name: string;
  readonly scope: string;
  readonly version: number;
  readonly status: VersionStatus;
  readonly changed: boolean;
}

/** A new version of a custom skill from the whole package (its name stays the skill's). */
export async function saveWorkspaceSkill(
  deps: WorkspaceSkillDependencies,
  caller: Caller,
  skillId: string,
  files: SkillFiles,
): Promise<SaveResult> {
  const actor = actorOf(caller);
  const manifest = validPackage(files);
  const digest = packageDigest(files);
  const filesId = newFilesId();
  let filesSaved = false;
  const saved = withGuardedWrite(deps, caller, skillId, async (skill) => {
    assertVisible(skill, actor);
    if (manifest.name !== skill.name) {
      throw errors.badRequest({ detail: `Invalid skill package: SKILL.md must keep the skill's name, ${skill.name}` });
    }
    const now = deps.clock.now();
    const decision = decideSave(skill, actor, {
      author_user_id: actor.userId,
      created_at_ms: now,
      description: manifest.description,
      digest,
      files_id: filesId,
    });
    const version = (decision.changed ? decision.versions : skill.versions).at(-1)!;
    const answer = {
      skillId,
      name: skill.name,
      scope: skill.scope,
      version: version.version,
      status: decision.status,
      changed: decision.changed,
    };
    if (!decision.changed) return { written: true, answer };
    if (!filesSaved) await deps.skills.saveFiles(filesId, skillId, files);
    filesSaved = true;
    const { versions, live_version, pending_version } = decision;
    return {
      written: await deps.skills.update(skill, { versions, live_version, pending_version, updated_at_ms: now }),
      answer,
    };
  });
  // Files stored for an attempt that in the end stored no version are dropped again.
  const result = await saved.catch(async (error: unknown) => {
    if (filesSaved) await deps.skills.dropFiles(filesId);
    throw error;
  });
  if (filesSaved && !result.changed) await deps.skills.dropFiles(filesId);
  return result;
}
