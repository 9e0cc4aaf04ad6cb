import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';

/**
 * What the OpenAPI document says about one operation, for a reader who has not read the spec:
 * a one-line summary, where in the spec its rules live, what it does, costs and returns, and a
 * request that works as sent against the all-in-one with the dev owner key (decision 0053).
 */
export interface OperationDoc {
  readonly summary: string;
  /** The spec section and rule numbers, e.g. `Search, rules 1–4`: the description's first line. */
  readonly spec: string;
  /** What it does, what it costs and what it returns, in a sentence or two. */
  readonly does: string;
  /** The request body example; a paid operation's carries `dry_run: true`, so trying it spends nothing. */
  readonly body?: object;
  /** Query parameter examples, by parameter name. */
  readonly query?: Readonly<Record<string, unknown>>;
  /**
   * Examples of path parameters that choose a kind of thing (a tool, a capability, a provider).
   * Parameters naming a resource the caller made (a dataset, a run, a key) have none: no fixed id
   * exists in every workspace.
   */
  readonly params?: Readonly<Record<string, string>>;
}

/** One tag of the document: a group of operations as the spec groups its endpoints. */
export interface OperationGroup {
  readonly tag: string;
  /** What the group is for; shown above its operations in /docs. */
  readonly about: string;
  /** Its operations, keyed `METHOD /path/{param}` as the document names them. */
  readonly operations: Readonly<Record<string, OperationDoc>>;
}

/** `POST /search/{capability}` for the route `POST /search/:capability`; a wildcard is `{*}`, as in the document. */
export function operationKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}')}`;
}

type DocumentedSchema = FastifySchema & {
  hide?: boolean;
  body?: object;
  querystring?: ParametersSchema;
  params?: ParametersSchema;
};
type ParametersSchema = { properties?: Record<string, object> };

/**
 * Puts each group's summaries, descriptions, tag and examples on its routes' schemas as they are
 * registered, so the document @fastify/swagger builds carries them. Examples are JSON Schema
 * `examples` annotations (the validator ignores them); the route's own schema objects, often
 * shared with the mcp service, are copied, never changed.
 */
export function registerOperationDocs(app: FastifyInstance, groups: readonly OperationGroup[]): void {
  const byKey = new Map(
    groups.flatMap(({ tag, operations }) => Object.entries(operations).map(([key, doc]) => [key, { tag, doc }])),
  );
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = (route.schema ?? {}) as DocumentedSchema;
    if (schema.hide) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const found = byKey.get(operationKey(methods[0], route.url));
    if (!found) return;
    const { tag, doc } = found;
    route.schema = {
      ...schema,
      tags: [tag],
      summary: doc.summary,
      description: `Spec: ${doc.spec}.\n\n${doc.does}`,
      ...(doc.body && schema.body && { body: { ...schema.body, examples: [doc.body] } }),
      ...(doc.query && schema.querystring && { querystring: withExamples(schema.querystring, doc.query) }),
      ...(doc.params && schema.params && { params: withExamples(schema.params, doc.params) }),
    };
  });
}

/** The parameters' schema with each named parameter's example added. */
function withExamples(parameters: ParametersSchema, examples: Readonly<Record<string, unknown>>): ParametersSchema {
  const properties = { ...parameters.properties };
  for (const [name, example] of Object.entries(examples))
    properties[name] = { ...properties[name], examples: [example] };
  return { ...parameters, properties };
}
