import type { catalogSkills } from '@rde/proto';
import type { SaveResult } from '../app/skills/save-workspace-skill';
import type { SkillSeen } from '../app/skills/read-workspace-skills';
import type { VersionMeta } from '../domain/skills/workspace-skill';

/** A custom skill's list entry as the caller sees it: versions they may not see are not counted. */
export function workspaceSkillView({ skill, versions, actor }: SkillSeen): catalogSkills.WorkspaceSkill {
  const live = versions.find((version) => version.version === skill.live_version);
  const pending = skill.versions.find((version) => version.version === skill.pending_version);
  return {
    id: skill._id,
    name: skill.name,
    scope: skill.scope,
    description: (live ?? versions.at(-1)!).description,
    authorUserId: skill.author_user_id,
    liveVersion: skill.live_version ?? undefined,
    latestVersion: versions.at(-1)!.version,
    pendingVersion: pending && versions.includes(pending) ? pending.version : undefined,
    draftByOther: pending !== undefined && pending.author_user_id !== actor.userId,
    createdAt: new Date(skill.created_at_ms).toISOString(),
    updatedAt: new Date(skill.updated_at_ms).toISOString(),
  };
}

export function skillVersionView(version: VersionMeta, files: Record<string, string> = {}): catalogSkills.SkillVersion {
  return {
    version: version.version,
    status: version.status,
    authorUserId: version.author_user_id,
    createdAt: new Date(version.created_at_ms).toISOString(),
    note: version.note,
    files,
  };
}

export function saveResultView(result: SaveResult): catalogSkills.SkillSaveResult {
  return { ...result };
}
