import type { FastifyInstance } from 'fastify';
import type { GatewayDependencies } from '../../dependencies';
import { npmRoutes } from './npm';
import { onboardingRoutes } from './onboarding';
import { releaseRoutes } from './releases';

/** Bootstrap and distribution: the client's releases and install script, the npm proxy, onboarding content. */
export async function distributionRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  await releaseRoutes(app, deps);
  await npmRoutes(app, deps);
  await onboardingRoutes(app, deps);
}
