import type {
  GetWorkspaceSkillResponse,
  SkillSaveResult,
  SkillVersion,
  WorkspaceSkill,
} from './gen/rde/catalog/v1/skills';

/**
 * The public JSON of custom skills (spec Resources: custom skill, skill create/update result), built
 * from catalog's SkillService messages: one definition for the REST routes and the MCP tools.
 */

export function workspaceSkill(skill: WorkspaceSkill) {
  return {
    id: skill.id,
    name: skill.name,
    scope: skill.scope,
    description: skill.description,
    author_user_id: skill.authorUserId,
    live_version: skill.liveVersion ?? null,
    latest_version: skill.latestVersion,
    pending_version: skill.pendingVersion ?? null,
    draft_by_other: skill.draftByOther,
    created_at: skill.createdAt,
    updated_at: skill.updatedAt,
  };
}

export function skillVersion(version: SkillVersion) {
  return {
    version: version.version,
    status: version.status,
    author_user_id: version.authorUserId,
    created_at: version.createdAt,
    note: version.note,
  };
}

export function saveResult(result: SkillSaveResult) {
  return {
    skill_id: result.skillId,
    name: result.name,
    scope: result.scope,
    version: result.version,
    status: result.status,
    changed: result.changed,
  };
}

/** A skill's detail: its list fields, the version shown with its files, and the versions the caller may see. */
export function skillDetail(found: GetWorkspaceSkillResponse) {
  return {
    ...workspaceSkill(found.skill!),
    version: { ...skillVersion(found.version!), files: found.version!.files },
    versions: found.versions.map(skillVersion),
  };
}
