/** One lint finding (decision 0073): where (a JSON Pointer into the document), what, and a code to branch on. */
export interface Problem {
  readonly path: string;
  readonly message: string;
  readonly code: ProblemCode;
  /** For `invalid_payload`: the tools' body (unknown, missing, missing_one_of, invalid, expected). */
  readonly details?: Record<string, unknown>;
}

export type ProblemCode =
  | 'not_json'
  | 'too_deep'
  | 'schema'
  | 'duplicate_step_id'
  | 'invalid_reference'
  | 'unknown_reference'
  | 'unknown_uses'
  | 'invalid_payload'
  | 'for_each_unbounded'
  | 'invalid_condition'
  | 'invalid_input_schema';
