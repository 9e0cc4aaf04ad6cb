import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { publicRoutes } from '@rde/proto';
import type { GatewayDependencies } from '../../dependencies';
import { bytesOf, started } from '../../streams';
import { packageParams, packumentResponse, tarballParams, tarballResponse, upstreamErrors } from './schemas';

const open = { public: true } as const;
const { ROUTES, routerPath } = publicRoutes;
/** Where the packages live under this host: the packument route without its parameter. */
const REGISTRY_BASE = ROUTES.npmPackument.replace('/{package_name}', '');

/**
 * The package-registry proxy: point npm at `<origin>/api/v2/npm/` as its registry. A scoped name
 * arrives encoded (`@scope%2fname`), as npm sends it, and is one path parameter.
 */
export async function npmRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { distribution } = deps.clients;

  app.get<{ Params: { package_name: string } }>(
    routerPath(ROUTES.npmPackument),
    {
      config: open,
      schema: { params: packageParams, response: { 200: packumentResponse, ...upstreamErrors } },
    },
    async (request, reply) => {
      const { packumentJson } = await distribution.getNpmPackument({
        name: request.params.package_name,
        tarballBaseUrl: `${deps.publicOrigin()}${REGISTRY_BASE}`,
      });
      return reply.type('application/json').send(Buffer.from(packumentJson));
    },
  );

  app.get<{ Params: { package_name: string; file: string } }>(
    routerPath(ROUTES.npmTarball),
    {
      config: open,
      schema: { params: tarballParams, response: { 200: tarballResponse, ...upstreamErrors } },
    },
    async (request, reply) => {
      const { package_name: name, file } = request.params;
      const chunks = await started(distribution.getNpmTarball({ name, file }));
      return reply.type('application/octet-stream').send(Readable.from(bytesOf(chunks)));
    },
  );
}
