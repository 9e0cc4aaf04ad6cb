/**
 * The Kafka topics of the contracts, each beside the proto message it carries: one name for the
 * producer and the consumer, like the messages themselves. Keys are workspace ids.
 */

/** `rde.billing.v1.Settlement`: paid work's charges and hold releases, for billing to apply. */
export const SETTLEMENTS = 'billing.settlements';

/** `rde.waterfall.v1.EnrichRunChunk`: the chunks of a dataset enrichment run, for any waterfall replica to work. */
export const ENRICH_RUN_CHUNKS = 'waterfall.enrich-run-chunks';

/** `rde.workflow.v1.WorkflowRunQueued`: a queued workflow run, for any workflow replica to work. */
export const WORKFLOW_RUNS = 'workflow.runs';
