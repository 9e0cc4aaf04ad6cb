import type { FastifyInstance } from 'fastify';
import type { GatewayDependencies } from '../dependencies';
import { authRoutes } from './auth';
import { billingRoutes } from './billing';
import { dashboardRoutes } from './dashboard';
import { datasetRoutes } from './datasets';
import { distributionRoutes } from './distribution';
import { enrichRoutes } from './enrich';
import { enrichRunRoutes } from './enrich-runs';
import { feedbackRoutes } from './feedback';
import { healthRoutes } from './health';
import { integrationRoutes } from './integrations';
import { inviteRoutes } from './invites';
import { keyRoutes } from './keys';
import { mcpRoutes } from './mcp';
import { memberRoutes } from './members';
import { mcpOAuthRoutes } from './mcp/oauth';
import { metaRoutes } from './meta';
import { qualifyRoutes } from './qualify';
import { searchRoutes } from './search';
import { sessionRoutes } from './sessions';
import { skillRoutes } from './skills';
import { toolsRoutes } from './tools';
import { webhookRoutes } from './webhooks';
import { inboundWebhookRoutes } from './webhooks/inbound';
import { workflowRoutes } from './workflows';
import { workflowRunRoutes } from './workflows/runs';

/** Route modules, grouped as the spec groups them; each declares its schemas beside its handlers. */
export const ROUTE_MODULES: ((app: FastifyInstance, deps: GatewayDependencies) => Promise<void>)[] = [
  healthRoutes,
  metaRoutes,
  dashboardRoutes,
  keyRoutes,
  toolsRoutes,
  billingRoutes,
  datasetRoutes,
  searchRoutes,
  enrichRoutes,
  enrichRunRoutes,
  webhookRoutes,
  inboundWebhookRoutes,
  authRoutes,
  inviteRoutes,
  memberRoutes,
  feedbackRoutes,
  integrationRoutes,
  mcpRoutes,
  mcpOAuthRoutes,
  sessionRoutes,
  qualifyRoutes,
  distributionRoutes,
  workflowRoutes,
  workflowRunRoutes,
  skillRoutes,
];
