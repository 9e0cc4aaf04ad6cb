import type { FastifyInstance } from 'fastify';
import { publicRoutes, skillsJson } from '@rde/proto';
import { deletedBody, errorResponses } from '../../contract';
import type { GatewayDependencies } from '../../dependencies';
import {
  createBody,
  detailSchema,
  listSchema,
  PACKAGE_BODY_LIMIT_BYTES,
  reviewBody,
  saveBody,
  saveResultSchema,
  skillParams,
  versionParams,
  versionQuery,
} from './schemas';

const { ROUTES, routerPath } = publicRoutes;

/** 400: not a valid text skill; 403: no signed-in user (or not the owner, on a review). */
const packageErrors = errorResponses(400, 403);
/** 409: the name is taken, the workspace is full, another member's version waits, or it is not pending. */
const conflictErrors = errorResponses(403, 409);

type SkillParams = { skill_id: string };
type VersionParams = SkillParams & { version: number };

/** A workspace's custom skills: the caller's view through catalog's SkillService (decision 0064). */
export async function workspaceSkillRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const skills = deps.clients.skills;

  app.get(
    ROUTES.workspaceSkills,
    { schema: { response: { 200: listSchema, ...errorResponses(403) } } },
    async ({ caller }) => {
      const listed = await skills.listWorkspaceSkills({}, { caller });
      return { skills: listed.skills.map(skillsJson.workspaceSkill), trial_expires_at: null };
    },
  );

  app.post<{ Body: { scope: string; files: Record<string, string> } }>(
    ROUTES.workspaceSkills,
    {
      bodyLimit: PACKAGE_BODY_LIMIT_BYTES,
      schema: { body: createBody, response: { 201: saveResultSchema, ...packageErrors, ...conflictErrors } },
    },
    async ({ body, caller }, reply) => {
      const created = await skills.createWorkspaceSkill({ scope: body.scope, files: body.files }, { caller });
      return reply.code(201).send(skillsJson.saveResult(created.result!));
    },
  );

  app.get<{ Params: SkillParams; Querystring: { version?: number } }>(
    routerPath(ROUTES.workspaceSkill),
    {
      schema: {
        params: skillParams,
        querystring: versionQuery,
        response: { 200: detailSchema, ...errorResponses(403) },
      },
    },
    async ({ params, query, caller }) => {
      const found = await skills.getWorkspaceSkill(
        { skillId: params.skill_id, version: query.version ?? 0 },
        { caller },
      );
      return {
        ...skillsJson.workspaceSkill(found.skill!),
        version: { ...skillsJson.skillVersion(found.version!), files: found.version!.files },
        versions: found.versions.map(skillsJson.skillVersion),
      };
    },
  );

  app.put<{ Params: SkillParams; Body: { files: Record<string, string> } }>(
    routerPath(ROUTES.workspaceSkill),
    {
      bodyLimit: PACKAGE_BODY_LIMIT_BYTES,
      schema: {
        params: skillParams,
        body: saveBody,
        response: { 200: saveResultSchema, ...packageErrors, ...conflictErrors },
      },
    },
    async ({ params, body, caller }) =>
      skillsJson.saveResult(
        (await skills.saveWorkspaceSkill({ skillId: params.skill_id, files: body.files }, { caller })).result!,
      ),
  );

  for (const [route, decision] of [
    [ROUTES.approveSkillVersion, 'approve'],
    [ROUTES.rejectSkillVersion, 'reject'],
  ] as const) {
    app.post<{ Params: VersionParams; Body: { note?: string } | null }>(
      routerPath(route),
      { schema: { params: versionParams, body: reviewBody, response: { 200: saveResultSchema, ...conflictErrors } } },
      async ({ params, body, caller }) => {
        const request = { skillId: params.skill_id, version: params.version, decision, note: body?.note ?? '' };
        return skillsJson.saveResult((await skills.reviewSkillVersion(request, { caller })).result!);
      },
    );
  }

  app.delete<{ Params: SkillParams }>(
    routerPath(ROUTES.workspaceSkill),
    { schema: { params: skillParams, response: { 200: deletedBody, ...errorResponses(403) } } },
    async ({ params, caller }) => {
      const deleted = await skills.deleteWorkspaceSkill({ skillId: params.skill_id }, { caller });
      return { ok: true, deleted: deleted.skillId };
    },
  );
}
