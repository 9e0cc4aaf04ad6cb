import { publicRoutes, skillsJson } from '@rde/proto';
import { object, text, type McpTool } from './tool';

const { ROUTES } = publicRoutes;

/**
 * The workspace's custom skills (spec "Custom skills"), so an MCP client can load its team's
 * skills: the live ones listed, and one read with its files. Like the REST routes they need a
 * signed-in user's credential, and show only what the caller may see.
 */
export const SKILL_TOOLS: readonly McpTool[] = [
  {
    name: 'list_workspace_skills',
    title: "List the workspace's skills",
    description: `The workspace's live custom skills (GET ${ROUTES.workspaceSkills}, those with a live version).`,
    inputSchema: object({}),
    spends: false,
    async run(clients, caller) {
      const listed = await clients.skills.listWorkspaceSkills({}, { caller });
      return {
        skills: listed.skills.filter((skill) => skill.liveVersion !== undefined).map(skillsJson.workspaceSkill),
      };
    },
  },
  {
    name: 'get_workspace_skill',
    title: 'Read a workspace skill',
    description: `One custom skill with its files, the live version unless \`version\` is given (GET ${ROUTES.workspaceSkill}).`,
    inputSchema: object(
      { skill_id: text('skill id (`skl_…`)'), version: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
      ['skill_id'],
    ),
    spends: false,
    async run(clients, caller, args) {
      const request = { skillId: args.skill_id as string, version: (args.version as number | undefined) ?? 0 };
      return skillsJson.skillDetail(await clients.skills.getWorkspaceSkill(request, { caller }));
    },
  },
];
