import type { ServiceModule } from '@rde/platform';
import { authModule } from '@rde/auth';
import { billingModule } from '@rde/billing';
import { catalogModule } from '@rde/catalog';
import { datasetModule } from '@rde/dataset';
import { gatewayModule } from '@rde/gateway';
import { mcpModule } from '@rde/mcp';
import { sandboxModule } from '@rde/sandbox';
import { waterfallModule } from '@rde/waterfall';
import { workflowModule } from '@rde/workflow';

/** Every module the binary can run, in one place (Loki's modules.go). */
export const MODULES: readonly ServiceModule[] = [
  // The simulated vendors: started first so the catalog's providers have somewhere to call.
  sandboxModule,
  authModule,
  billingModule,
  catalogModule,
  waterfallModule,
  datasetModule,
  workflowModule,
  mcpModule,
  gatewayModule,
];
