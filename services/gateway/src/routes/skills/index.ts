import type { FastifyInstance } from 'fastify';
import type { GatewayDependencies } from '../../dependencies';
import { skillDiscoveryRoutes } from './discovery';
import { workspaceSkillRoutes } from './workspace';

/** Skills: RDE's own (public discovery, files, archives) and each workspace's custom skills. */
export async function skillRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  await skillDiscoveryRoutes(app, deps);
  await workspaceSkillRoutes(app, deps);
}
