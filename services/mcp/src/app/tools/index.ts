import { BILLING_TOOLS } from './billing';
import { CATALOG_TOOLS } from './catalog';
import { DATASET_TOOLS } from './datasets';
import { ENRICH_TOOLS } from './enrich';
import { QUALIFY_TOOLS } from './qualify';
import { SEARCH_TOOLS } from './search';
import { SKILL_TOOLS } from './skills';
import type { McpTool } from './tool';
import { WORKFLOW_TOOLS } from './workflows';

export type { McpTool } from './tool';

/**
 * The tool list (decision 0028), one module per spec section. Dataset enrichment runs (POST
 * /enrich/run, GET /enrich/runs/{run_id}) join as a `runs` module when the waterfall serves them.
 */
export const MCP_TOOLS: readonly McpTool[] = [
  ...CATALOG_TOOLS,
  ...SEARCH_TOOLS,
  ...ENRICH_TOOLS,
  ...QUALIFY_TOOLS,
  ...DATASET_TOOLS,
  ...BILLING_TOOLS,
  ...WORKFLOW_TOOLS,
  ...SKILL_TOOLS,
];
