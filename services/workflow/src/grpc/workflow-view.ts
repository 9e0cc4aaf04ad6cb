import type { workflow } from '@rde/proto';
import type { WorkflowRecord, WorkflowSummary } from '../domain/workflow';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

export function toSummaryProto(summary: WorkflowSummary): workflow.Workflow {
  return {
    id: summary.id,
    name: summary.name,
    description: summary.description,
    enabled: summary.enabled,
    triggerType: summary.triggerType,
    version: summary.latestVersion,
    latestVersion: summary.latestVersion,
    definitionJson: Buffer.alloc(0),
    createdAtMs: summary.createdAt,
    updatedAtMs: summary.updatedAt,
    versionCreatedAtMs: 0,
  };
}

export function toProto(record: WorkflowRecord): workflow.Workflow {
  return {
    ...toSummaryProto(record),
    version: record.version.version,
    definitionJson: json(record.version.definition),
    versionCreatedAtMs: record.version.createdAt,
  };
}
