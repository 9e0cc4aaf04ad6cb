import { publicSchemas } from '@rde/proto';

/**
 * The workflow definition (decision 0072): what a user writes and `apply` stores as a version. Its
 * fixed JSON Schema is in the public contract (publicSchemas.workflowDefinitionSchema); the
 * semantic rules are in lint.ts.
 */

export const LIMITS = publicSchemas.WORKFLOW_LIMITS;
export const DEFINITION_SCHEMA = publicSchemas.workflowDefinitionSchema;

export type TriggerType = (typeof publicSchemas.WORKFLOW_TRIGGER_TYPES)[number];

export interface ForEach {
  /** A reference to an array, or a literal array. */
  readonly items: unknown;
  readonly max_items?: number;
}

export interface Step {
  readonly id: string;
  readonly uses: string;
  readonly with?: Record<string, unknown>;
  readonly if?: unknown;
  readonly for_each?: ForEach;
  readonly on_error?: (typeof publicSchemas.WORKFLOW_ON_ERROR)[number];
}

export interface Definition {
  readonly name: string;
  readonly description?: string;
  readonly trigger: { readonly type: TriggerType };
  readonly input?: { readonly schema: Record<string, unknown> };
  readonly steps: readonly Step[];
  readonly output?: Record<string, unknown>;
}
