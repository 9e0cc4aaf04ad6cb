import type { FastifyInstance } from 'fastify';
import { publicRoutes, type catalogSkills } from '@rde/proto';
import type { GatewayDependencies } from '../../dependencies';
import { sendTagged } from './conditional';
import {
  archiveParams,
  archiveResponse,
  fileParams,
  fileResponse,
  indexSchema,
  markdownResponse,
  notModified,
  SETUP_SKILL,
  SKILL_ENTRYPOINT,
  versionsSchema,
} from './schemas';

const { ROUTES, routerPath, filled } = publicRoutes;

/** The agent-skills discovery schema the index declares (Versioning 5). */
const DISCOVERY_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
const open = { public: true } as const;

/**
 * RDE's own skills, public by design: the setup skill at /SKILL.md, the discovery index at both
 * well-known paths (decision 0063), each package's files and archive, the bundle, and the catalog's
 * hash beside the latest CLI release's in /api/v2/versions. Files and archives come from catalog, which looks names and paths up in
 * the list it read at start.
 */
export async function skillDiscoveryRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const skills = deps.clients.skills;

  app.get(
    ROUTES.setupSkill,
    { config: open, schema: { response: { 200: markdownResponse, ...notModified } } },
    async (request, reply) => {
      const file = await skills.getSkillFile({ name: SETUP_SKILL, path: SKILL_ENTRYPOINT });
      return sendTagged(request, reply, {
        body: Buffer.from(file.content),
        sha256: file.sha256,
        type: 'text/markdown; charset=utf-8',
      });
    },
  );

  app.get(ROUTES.versions, { config: open, schema: { response: { 200: versionsSchema } } }, async () => {
    const [catalog, cli] = await Promise.all([
      skills.getSkillCatalog({}),
      deps.clients.distribution.listCliReleases({}),
    ]);
    const latest = cli.releases.find((release) => release.version === cli.latest);
    return {
      cli: latest ? { version: latest.version, sha256: latest.sha256, min_cli_version: cli.minCliVersion } : null,
      skills: { sha256: catalog.sha256, count: catalog.skills.length },
    };
  });

  for (const route of [ROUTES.skillIndex, ROUTES.agentSkillIndex]) {
    app.get(route, { config: open, schema: { response: { 200: indexSchema } } }, async () =>
      indexOf(await skills.getSkillCatalog({})),
    );
  }

  app.get(
    ROUTES.skillsBundle,
    { config: open, schema: { response: { 200: archiveResponse, ...notModified } } },
    async (request, reply) => {
      const bundle = await skills.getSkillArchive({ name: '' });
      reply.header('content-disposition', 'attachment; filename="rde-skills.tar.gz"');
      return sendTagged(request, reply, archiveOf(bundle));
    },
  );

  app.get<{ Params: { name: string } }>(
    routerPath(ROUTES.skillArchive),
    { config: open, schema: { params: archiveParams, response: { 200: archiveResponse, ...notModified } } },
    async (request, reply) =>
      sendTagged(request, reply, archiveOf(await skills.getSkillArchive({ name: request.params.name }))),
  );

  app.get<{ Params: { name: string; '*': string } }>(
    // The relative path may hold slashes (references/…): a wildcard, looked up whole by catalog.
    routerPath(ROUTES.skillFile).replace(':rel_path', '*'),
    { config: open, schema: { params: fileParams, response: { 200: fileResponse, ...notModified } } },
    async (request, reply) => {
      const path = request.params['*'] ?? '';
      const file = await skills.getSkillFile({ name: request.params.name, path });
      return sendTagged(request, reply, {
        body: Buffer.from(file.content),
        sha256: file.sha256,
        type: contentTypeOf(path),
      });
    },
  );
}

function contentTypeOf(path: string): string {
  return path.endsWith('.md') ? 'text/markdown; charset=utf-8' : 'text/plain; charset=utf-8';
}

function archiveOf(archive: catalogSkills.GetSkillArchiveResponse) {
  return {
    body: Buffer.from(archive.archive),
    sha256: archive.digest.replace(/^sha256:/, ''),
    type: 'application/gzip',
  };
}

/** The discovery index: every entry an archive, its URLs absolute paths so both index paths share them. */
function indexOf(catalog: catalogSkills.GetSkillCatalogResponse) {
  return {
    $schema: DISCOVERY_SCHEMA,
    version: catalog.sha256,
    skills: catalog.skills.map((skill) => ({
      name: skill.name,
      type: 'archive',
      description: skill.description,
      url: filled(ROUTES.skillArchive, { name: skill.name }),
      digest: skill.digest,
      version: skill.digest.replace(/^sha256:/, ''),
      base_url: filled(ROUTES.skillFile, { name: skill.name, rel_path: '' }),
      files: skill.files,
      entrypoint: SKILL_ENTRYPOINT,
      documents: skill.files.filter((file) => file !== SKILL_ENTRYPOINT && file.endsWith('.md')),
    })),
  };
}
