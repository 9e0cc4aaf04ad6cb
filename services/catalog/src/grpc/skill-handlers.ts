import { type Handlers, workspaceCallerOf } from '@rde/platform';
import type { catalogSkills } from '@rde/proto';
import type { PublicSkillCatalog } from '../app/skills/public-catalog';
import { createWorkspaceSkill } from '../app/skills/create-workspace-skill';
import { deleteWorkspaceSkill } from '../app/skills/delete-workspace-skill';
import { getWorkspaceSkill, listWorkspaceSkills } from '../app/skills/read-workspace-skills';
import { reviewSkillVersion } from '../app/skills/review-skill-version';
import { saveWorkspaceSkill } from '../app/skills/save-workspace-skill';
import type { WorkspaceSkillDependencies } from '../app/skills/workspace-skill-access';
import { saveResultView, skillVersionView, workspaceSkillView } from './skill-views';

/** Translates the SkillService RPCs to the public catalog and the custom-skill use cases. */
export function skillHandlers(
  publicSkills: PublicSkillCatalog,
  deps: WorkspaceSkillDependencies,
): Handlers<typeof catalogSkills.SkillServiceService> {
  return {
    async getSkillCatalog() {
      return {
        skills: publicSkills.list().map((skill) => ({ ...skill, files: [...skill.files] })),
        sha256: publicSkills.sha256,
      };
    },

    async getSkillFile({ name, path }) {
      return publicSkills.file(name, path);
    },

    async getSkillArchive({ name }) {
      return publicSkills.archive(name);
    },

    async listWorkspaceSkills(_request, context) {
      return { skills: (await listWorkspaceSkills(deps, workspaceCallerOf(context))).map(workspaceSkillView) };
    },

    async getWorkspaceSkill({ skillId, version }, context) {
      const seen = await getWorkspaceSkill(deps, workspaceCallerOf(context), skillId, version);
      return {
        skill: workspaceSkillView(seen),
        version: skillVersionView(seen.shown, { ...seen.files }),
        versions: seen.versions.map((meta) => skillVersionView(meta)),
      };
    },

    async createWorkspaceSkill({ scope, files }, context) {
      return { result: saveResultView(await createWorkspaceSkill(deps, workspaceCallerOf(context), scope, files)) };
    },

    async saveWorkspaceSkill({ skillId, files }, context) {
      return { result: saveResultView(await saveWorkspaceSkill(deps, workspaceCallerOf(context), skillId, files)) };
    },

    async reviewSkillVersion(request, context) {
      return { result: saveResultView(await reviewSkillVersion(deps, workspaceCallerOf(context), request)) };
    },

    async deleteWorkspaceSkill({ skillId }, context) {
      await deleteWorkspaceSkill(deps, workspaceCallerOf(context), skillId);
      return { skillId };
    },
  };
}
