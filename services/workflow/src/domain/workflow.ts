import { createHash, randomBytes } from 'node:crypto';
import stableStringify from 'fast-json-stable-stringify';
import type { Definition, TriggerType } from './definition';

/** A stored workflow as listed: its name, state and newest version (decision 0072). */
export interface WorkflowSummary {
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  /** The latest version's. */
  readonly description: string;
  readonly triggerType: TriggerType;
  readonly enabled: boolean;
  /** 0 while a create is under way: such a workflow is not shown. */
  readonly latestVersion: number;
  readonly latestHash: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A workflow at one of its versions. */
export interface WorkflowRecord extends WorkflowSummary {
  readonly version: VersionRecord;
}

/** One applied version of a workflow's definition. */
export interface VersionRecord {
  readonly workflowId: string;
  readonly version: number;
  readonly definition: Definition;
  /** The definition's fingerprint: equal definitions (key order aside) have equal hashes. */
  readonly hash: string;
  readonly createdAt: number;
}

export interface Page {
  readonly offset: number;
  readonly limit: number;
}

/** `wf_` and 96 random bits: ids are not secrets, only unguessable enough not to be enumerable. */
export function newWorkflowId(): string {
  return `wf_${randomBytes(12).toString('hex')}`;
}

/** Key order does not make a new version: the fingerprint is of the canonical JSON. */
export function definitionHash(definition: Definition): string {
  return createHash('sha256').update(stableStringify(definition)).digest('hex');
}
