import { publicSchemas } from '@rde/proto';

/**
 * What a step's `uses` names (decisions 0072, 0088): the waterfall features and the free dataset
 * operations by their fixed names, with their REST routes' request schemas, or a catalog method
 * `<tool>.<method>`, whose payload schema the catalog owns and is asked for.
 */
export type Uses =
  | { readonly kind: 'builtin'; readonly schema: Record<string, unknown> }
  | { readonly kind: 'method'; readonly tool: string; readonly method: string }
  | { readonly kind: 'malformed' };

/** The step that starts a dataset enrichment run and waits for its end. */
export const ENRICH_RUN = 'enrich.run';

const BUILTINS: ReadonlyMap<string, Record<string, unknown>> = new Map<string, Record<string, unknown>>([
  ['search.people_search', publicSchemas.searchBody],
  ['qualify', publicSchemas.qualifyBody],
  ...publicSchemas.ENRICH_CAPABILITIES.map((capability) => [`enrich.${capability}`, publicSchemas.enrichBody] as const),
  [ENRICH_RUN, publicSchemas.enrichRunBody],
  ...Object.entries(publicSchemas.workflowDatasetSteps),
]);

/** A catalog tool or method name: the catalog's own names are lower-case words with `_`. */
const NAME = /^[a-z0-9][a-z0-9_-]{0,99}$/;

export function parseUses(uses: string): Uses {
  const builtin = BUILTINS.get(uses);
  if (builtin) return { kind: 'builtin', schema: builtin };
  const [tool, method, ...rest] = uses.split('.');
  if (rest.length === 0 && tool && method && NAME.test(tool) && NAME.test(method)) {
    return { kind: 'method', tool, method };
  }
  return { kind: 'malformed' };
}

/** How lint words an unknown `uses`. */
export const USES_HELP = `a step uses ${[...BUILTINS.keys()].join(', ')} or a catalog method <tool>.<method> (GET /tools lists them)`;
