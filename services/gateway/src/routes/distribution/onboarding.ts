import type { FastifyInstance } from 'fastify';
import { publicRoutes, type distribution as distributionProto } from '@rde/proto';
import type { GatewayDependencies } from '../../dependencies';
import { brandParams, brandResponse, notModified, recipesSchema, referenceParams, referenceResponse } from './schemas';

const open = { public: true } as const;
const { ROUTES, routerPath } = publicRoutes;

/** The onboarding recipes, the reference tables (with conditional requests) and the brand assets. */
export async function onboardingRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { distribution } = deps.clients;

  app.get(ROUTES.recipes, { config: open, schema: { response: { 200: recipesSchema } } }, async () => {
    const { recipes } = await distribution.listRecipes({});
    return {
      recipes: recipes.map(({ requests, ...recipe }) => ({ ...recipe, requests: requests.map(recipeRequestJson) })),
    };
  });

  app.get<{ Params: { name: string } }>(
    routerPath(ROUTES.onetReference),
    { config: open, schema: { params: referenceParams, response: { 200: referenceResponse, 304: notModified } } },
    async (request, reply) => {
      const { markdown, etag } = await distribution.getReference({ name: request.params.name });
      reply.header('etag', etag).header('cache-control', 'public, max-age=0, must-revalidate');
      if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('text/markdown; charset=utf-8').send(markdown);
    },
  );

  app.get<{ Params: { name: string } }>(
    routerPath(ROUTES.brand),
    { config: open, schema: { params: brandParams, response: { 200: brandResponse } } },
    async (request, reply) => {
      const { content, contentType } = await distribution.getBrandAsset({ name: request.params.name });
      return reply.type(contentType).header('x-content-type-options', 'nosniff').send(Buffer.from(content));
    },
  );
}

/** RFC 9110 If-None-Match: `*`, or a list of tags compared weakly (a `W/` prefix does not matter). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}

/** A recipe's request as the card shows it: only the fields it uses. */
function recipeRequestJson(request: distributionProto.RecipeRequest) {
  const { method, path, bodyJson, explains, savesAs, noKey, repeatUntilField, repeatUntilValues } = request;
  return {
    method,
    path,
    ...(bodyJson.length > 0 && { body: JSON.parse(Buffer.from(bodyJson).toString('utf8')) as object }),
    explains,
    auth: noKey ? 'none' : 'bearer',
    ...(savesAs && { saves_as: savesAs }),
    ...(repeatUntilField && { repeat_until: { field: repeatUntilField, in: repeatUntilValues } }),
  };
}
