/**
 * The public routes the MCP tools mirror, written as the spec writes them (`{name}` parameters; no
 * version prefix but where the spec gives one, Versioning 1). One table for the gateway's router
 * and the tools' descriptions, so a description cannot cite a route that does not exist (decision 0055).
 */
export const ROUTES = {
  tools: '/tools',
  toolMethod: '/tools/{tool}/{method}',
  /** An enrichment waterfall's tool route, one per capability. */
  enrichTool: '/tools/{capability}',
  enrichJob: '/enrich/jobs/{provider}/{job_id}',
  search: '/search/{capability}',
  qualify: '/qualify',
  datasets: '/api/v2/datasets',
  dataset: '/api/v2/datasets/{ds_id}',
  datasetRows: '/api/v2/datasets/{ds_id}/rows',
  balance: '/billing/balance',
  cliReleases: '/api/v2/cli/releases',
  cliVersion: '/cli/version',
  cliInstall: '/cli/install',
  cliInstallV2: '/api/v2/cli/install',
  cliArtifact: '/cli/{cli_artifact}.pyz',
  cliReleaseArtifact: '/cli/v{version}/{cli_artifact}.pyz',
  npmPackument: '/api/v2/npm/{package_name}',
  npmTarball: '/api/v2/npm/{package_name}/-/{file}',
  recipes: '/api/v2/recipes',
  onetReference: '/api/v2/reference/onet/{name}',
  brand: '/brand/{name}',
  workflows: '/api/v2/workflows',
  workflowLint: '/api/v2/workflows/lint',
  workflowApply: '/api/v2/workflows/apply',
  workflowSchema: '/api/v2/workflows/schema',
  workflow: '/api/v2/workflows/{workflow_id}',
  workflowEnable: '/api/v2/workflows/{workflow_id}/enable',
  workflowDisable: '/api/v2/workflows/{workflow_id}/disable',
  workflowCall: '/api/v2/workflows/call',
  workflowRunsAll: '/api/v2/workflows/runs',
  workflowRuns: '/api/v2/workflows/{workflow_id}/runs',
  workflowRun: '/api/v2/workflows/{workflow_id}/runs/{run_id}',
  workflowRunCancel: '/api/v2/workflows/{workflow_id}/runs/{run_id}/cancel',
  /** Not in the spec: a new inbound webhook id for the workflow, the old one stops (decision 0075). */
  workflowWebhookRotate: '/api/v2/workflows/{workflow_id}/webhook/rotate',
  webhookInbound: '/api/v2/webhooks/inbound/{webhook_id}',
  setupSkill: '/SKILL.md',
  versions: '/api/v2/versions',
  skillsBundle: '/api/v2/skills/bundle',
  skillIndex: '/.well-known/skills/index.json',
  /** The final agent-skills discovery 0.2.0 draft's path, which clients try first (decision 0063). */
  agentSkillIndex: '/.well-known/agent-skills/index.json',
  skillArchive: '/.well-known/skills/archives/{name}.tar.gz',
  skillFile: '/.well-known/skills/{name}/{rel_path}',
  workspaceSkills: '/api/v2/workspace/skills',
  workspaceSkill: '/api/v2/workspace/skills/{skill_id}',
  approveSkillVersion: '/api/v2/workspace/skills/{skill_id}/versions/{version}/approve',
  rejectSkillVersion: '/api/v2/workspace/skills/{skill_id}/versions/{version}/reject',
} as const;

/** A route in the gateway router's syntax: `{name}` becomes `:name`. */
export function routerPath(route: string): string {
  return route.replace(/{(\w+)}/g, ':$1');
}

/** A route with some parameters filled in (a capability, a tool), the others left as `{name}`. */
export function filled(route: string, values: Record<string, string>): string {
  return route.replace(/{(\w+)}/g, (parameter, name: string) => values[name] ?? parameter);
}
