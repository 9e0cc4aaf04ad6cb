import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { publicRoutes, type distribution } from '@rde/proto';
import type { GatewayDependencies } from '../../dependencies';
import { bytesOf, started } from '../../streams';
import { installScript } from './install-script';
import {
  artifactParams,
  artifactResponse,
  installScriptResponse,
  latestSchema,
  releasesSchema,
  upstreamErrors,
  versionedArtifactParams,
} from './schemas';

const open = { public: true } as const;
const { ROUTES, routerPath, filled } = publicRoutes;
/** The one artifact a release has; `/cli/{cli_artifact}.pyz` names it. */
const ARTIFACT = 'rde';

type Release = distribution.CliRelease;

/** The client's releases, its artifact (latest and by version), the self-update target and the install script. */
export async function releaseRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { distribution: releases } = deps.clients;
  const downloadUrl = (version: string) =>
    `${deps.publicOrigin()}${filled(ROUTES.cliReleaseArtifact, { version, cli_artifact: ARTIFACT })}`;
  const view = ({ version, sha256 }: Release) => ({ version, sha256, download_url: downloadUrl(version) });
  const listing = () => releases.listCliReleases({});
  const latestOf = async () => {
    const found = await listing();
    return { ...found, release: found.releases.find((release) => release.version === found.latest)! };
  };

  app.get(ROUTES.cliReleases, { config: open, schema: { response: { 200: releasesSchema } } }, async () => {
    const { latest, minCliVersion, releases: all } = await listing();
    return { latest, min_cli_version: minCliVersion, releases: all.map(view) };
  });

  app.get(ROUTES.cliVersion, { config: open, schema: { response: { 200: latestSchema } } }, async () => {
    const { release, minCliVersion } = await latestOf();
    return { ...view(release), min_cli_version: minCliVersion };
  });

  const script = async (_request: unknown, reply: FastifyReply) => {
    const { release } = await latestOf();
    return reply
      .type('text/plain; charset=utf-8')
      .send(installScript(deps.publicOrigin(), release.version, release.sha256));
  };
  const scriptSchema = { config: open, schema: { response: { 200: installScriptResponse } } };
  app.get(ROUTES.cliInstallV2, scriptSchema, script);
  app.get(ROUTES.cliInstall, scriptSchema, script);

  const artifact = async (reply: FastifyReply, name: string, version: string) => {
    if (name !== ARTIFACT)
      return reply.code(404).send({ detail: `no artifact ${name}.pyz: the client is ${ARTIFACT}.pyz` });
    const chunks = await started(releases.getCliArtifact({ version }));
    return reply
      .type('application/octet-stream')
      .header('content-disposition', `attachment; filename="${ARTIFACT}.pyz"`)
      .send(Readable.from(bytesOf(chunks)));
  };

  app.get<{ Params: { cli_artifact: string } }>(
    routerPath(ROUTES.cliArtifact),
    { config: open, schema: { params: artifactParams, response: { 200: artifactResponse } } },
    async (request, reply) => artifact(reply, request.params.cli_artifact, ''),
  );

  app.get<{ Params: { version: string; cli_artifact: string } }>(
    routerPath(ROUTES.cliReleaseArtifact),
    {
      config: open,
      schema: { params: versionedArtifactParams, response: { 200: artifactResponse, ...upstreamErrors } },
    },
    async (request, reply) => artifact(reply, request.params.cli_artifact, request.params.version),
  );
}
