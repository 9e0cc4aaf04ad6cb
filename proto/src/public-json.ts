// The public JSON bodies of the spec, projected from the contracts' messages. Both edges that speak
// them (the gateway's REST routes and the mcp service's tools) use these, so the two never drift.
import type { Credits } from './gen/rde/common/v1/common';
import type { Meta, Method, Tool } from './gen/rde/catalog/v1/catalog';
import type { Dataset } from './gen/rde/dataset/v1/dataset';
import type { EnrichMeta, QualifyResponse, SearchMeta } from './gen/rde/waterfall/v1/waterfall';
import type { LintWorkflowResponse, Workflow } from './gen/rde/workflow/v1/workflow';

/** Public JSON shows credits as numbers; the wire carries integer millicredits. Absent stays absent. */
export function credits(amount: Credits | undefined): number | undefined {
  return amount === undefined ? undefined : amount.millicredits / 1000;
}

export function toolHeader(tool: Tool) {
  return {
    name: tool.name,
    kind: tool.kind,
    module: tool.module,
    description: tool.description,
    method_count: tool.methods.length,
    ...(tool.chain.length > 0 && { chain: tool.chain }),
  };
}

function costOf(method: Method) {
  const cost = method.cost!;
  return { credits: credits(cost.amount)!, usd: Number(cost.usd), unit: cost.unit, note: cost.note };
}

export function methodSummary(method: Method) {
  return { name: method.name, description: method.description, cost: costOf(method) };
}

/** GET /tools: the listing, each tool with its methods. */
export function toolListing(tools: Tool[], filter: string) {
  return {
    count: tools.length,
    tools: tools.map((tool) => tool.name),
    results: tools.map((tool) => ({ ...toolHeader(tool), methods: tool.methods.map(methodSummary) })),
    filter: filter || null,
  };
}

/** One method's contract: inputs, payload schema, cost, capabilities. */
export function methodContract(tool: Tool, method: Method) {
  return {
    tool: tool.name,
    method: method.name,
    description: method.description,
    http: method.http,
    path: method.path,
    inputs: method.inputs,
    cost: costOf(method),
    ...(method.payloadSchemaJson.length > 0 && {
      payload_schema: JSON.parse(Buffer.from(method.payloadSchemaJson).toString('utf8')),
    }),
    ...(method.access && { access: method.access }),
    accepts_vendor_options: method.acceptsVendorOptions,
    capabilities: JSON.parse(Buffer.from(method.capabilitiesJson).toString('utf8') || '{}'),
  };
}

/** A tool call's `_meta` block with only the fields that apply. */
export function callMeta(meta: Meta) {
  const fields = {
    credits_charged: credits(meta.creditsCharged),
    balance: credits(meta.balance),
    reserved: credits(meta.reserved),
    run_id: meta.runId || undefined,
    settled: meta.settled,
    dataset_id: meta.datasetId || undefined,
    row_count: meta.rowCount,
    would_charge_credits: credits(meta.wouldChargeCredits),
    would_charge_credits_max: credits(meta.wouldChargeCreditsMax),
    would_call: meta.wouldCall || undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** The money and run fields every waterfall run's `_meta` carries (search and enrichment). */
function runMetering(meta: SearchMeta | EnrichMeta) {
  return {
    charged: credits(meta.charged),
    credits_charged: credits(meta.creditsCharged),
    balance: credits(meta.balance),
    reserved: credits(meta.reserved),
    settled: meta.settled,
    run_id: meta.runId || undefined,
    dataset_id: meta.datasetId || undefined,
    row_count: meta.rowCount,
  };
}

/** A people search's `_meta` block with only the fields that apply. */
export function searchMeta(meta: SearchMeta) {
  const fields = {
    ...runMetering(meta),
    would_charge_credits: credits(meta.wouldChargeCredits),
    ignored_query_keys: meta.ignoredQueryKeys,
    warnings: JSON.parse(Buffer.from(meta.warningsJson).toString('utf8') || '[]') as unknown,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** An enrichment's `_meta` block with only the fields that apply. */
export function enrichMeta(meta: EnrichMeta) {
  const fields = {
    ...runMetering(meta),
    status: meta.status || undefined,
    progress: meta.progress && { done: Number(meta.progress.done), total: Number(meta.progress.total) },
    poll_after_s: meta.pollAfterS,
    replayed: meta.replayed,
    pending_jobs: meta.runId
      ? meta.pendingJobs.map((job) => ({ provider: job.provider, job_id: job.jobId, fetch: job.fetch }))
      : undefined,
    would_charge_credits: credits(meta.wouldChargeCredits),
    would_call: meta.wouldCall || undefined,
    // Rule 9's `spending_cap_reached`, when a spending cap left rows out.
    warnings:
      meta.warningsJson.length > 0
        ? (JSON.parse(Buffer.from(meta.warningsJson).toString('utf8')) as unknown)
        : undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * POST /qualify's answer: the ranked candidates, or with `async` the run handle and `candidates`
 * as the row count. Scoring is free (decision 0030).
 */
export function qualified(answer: QualifyResponse, async: boolean) {
  const meta = { credits_charged: 0, scored_on: answer.scoredOn, thin_profiles: answer.thinProfiles };
  if (!async) {
    return { candidates: JSON.parse(Buffer.from(answer.candidatesJson).toString('utf8')) as object[], _meta: meta };
  }
  const run = { run_id: answer.runId, dataset_id: answer.datasetId, status: answer.status };
  return { ...run, candidates: answer.candidateCount, _meta: { ...meta, ...run } };
}

/** The public dataset record: times as ISO 8601, absent strings as null. */
export function datasetRecord(record: Dataset) {
  return {
    id: record.id,
    name: record.name,
    columns: record.columns,
    row_count: record.rowCount,
    created_at: new Date(record.createdAtMs).toISOString(),
    session_id: record.sessionId || null,
    created_by: record.createdByUserId || null,
    source: record.source || null,
    run_id: record.runId || null,
    enrich_status: record.enrichStatus,
  };
}

/** A workflow as listed (decision 0072): its name, state and newest version, without a definition. */
export function workflowSummary(workflow: Workflow) {
  return {
    id: workflow.id,
    name: workflow.name,
    description: workflow.description || null,
    status: workflow.enabled ? 'enabled' : 'disabled',
    trigger: { type: workflow.triggerType },
    latest_version: workflow.latestVersion,
    created_at: new Date(workflow.createdAtMs).toISOString(),
    updated_at: new Date(workflow.updatedAtMs).toISOString(),
  };
}

/** A workflow at one version, with that version's definition as applied. */
export function workflowRecord(workflow: Workflow) {
  return {
    ...workflowSummary(workflow),
    version: workflow.version,
    version_created_at: new Date(workflow.versionCreatedAtMs).toISOString(),
    definition: JSON.parse(Buffer.from(workflow.definitionJson).toString('utf8')) as Record<string, unknown>,
  };
}

/** POST /api/v2/workflows/lint: every problem with its place in the document (decision 0073). */
export function lintResult(linted: LintWorkflowResponse) {
  return {
    valid: linted.valid,
    problems: linted.problems.map((problem) => ({
      path: problem.path,
      code: problem.code,
      message: problem.message,
      ...(problem.detailsJson.length > 0 &&
        (JSON.parse(Buffer.from(problem.detailsJson).toString('utf8')) as Record<string, unknown>)),
    })),
  };
}
