/** An amount of credits in a response (integers of millicredits divided by 1,000). */
export const credits = { type: 'number', description: 'credits' } as const;

/** `_meta.warnings`: advisory or blocking-notice entries, each with its `code` (spec "_meta"). */
export const warnings = {
  type: 'array',
  items: {
    type: 'object',
    properties: { code: { type: 'string' } },
    required: ['code'],
    additionalProperties: true,
  },
} as const;

/** The `_meta` fields every waterfall run answers with (search and enrichment), spec "_meta". */
export const runMeteringProperties = {
  charged: credits,
  credits_charged: credits,
  balance: credits,
  reserved: credits,
  settled: { type: 'boolean' },
  run_id: { type: 'string' },
  dataset_id: { type: 'string' },
  row_count: { type: 'integer' },
} as const;
