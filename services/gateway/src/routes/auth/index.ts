import type { FastifyInstance } from 'fastify';
import type { GatewayDependencies } from '../../dependencies';
import { claimRoutes } from './claims';
import { externalSignInRoutes } from './external';
import { signInRoutes } from './sign-in';

/** Sign-in and claims (the spec's section of that name). */
export async function authRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  await signInRoutes(app, deps);
  await claimRoutes(app, deps);
  await externalSignInRoutes(app, deps);
}
