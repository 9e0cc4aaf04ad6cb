import type { Caller } from '@rde/platform';
import type { MethodSchemas } from '../clients/catalog';
import type { Definition } from '../domain/definition';
import { SemanticLint, type StepSchemas } from '../domain/lint';
import type { Problem } from '../domain/problems';
import { DefinitionShape } from '../domain/shape';
import { parseUses } from '../domain/uses';

export type Linted = { readonly definition: Definition; readonly problems: [] } | { readonly problems: Problem[] };

/**
 * Lints a definition (decision 0073): the fixed schema, then the semantic rules with each step's
 * `uses` looked up (the catalog's methods over its RPC). Used by the lint route and before every apply.
 */
export class LintWorkflow {
  private readonly shape = new DefinitionShape();
  private readonly semantics = new SemanticLint();

  constructor(private readonly methods: MethodSchemas) {}

  async lint(json: Uint8Array, caller: Caller, options: { allowBare: boolean }): Promise<Linted> {
    const shaped = this.shape.check(json, options);
    if (!shaped.ok) return { problems: shaped.problems };
    const { definition, locate } = shaped;
    const problems = this.semantics.problems(definition, await this.stepSchemas(definition, caller));
    if (problems.length === 0) return { definition, problems: [] };
    return { problems: problems.map((problem) => ({ ...problem, path: locate(problem.path) })) };
  }

  /** The input schema of every distinct `uses`, catalog methods asked concurrently. */
  async stepSchemas(definition: Definition, caller: Caller): Promise<StepSchemas> {
    const names = [...new Set(definition.steps.map((step) => step.uses))];
    const schemas = await Promise.all(names.map((uses) => this.schemaOf(uses, caller)));
    return new Map(names.map((uses, i) => [uses, schemas[i]]));
  }

  /** What a step using `uses` takes (GET /api/v2/workflows/schema?subject=<uses>), or undefined. */
  async schemaOf(uses: string, caller: Caller): Promise<Record<string, unknown> | undefined> {
    const parsed = parseUses(uses);
    if (parsed.kind === 'builtin') return parsed.schema;
    if (parsed.kind === 'method') return this.methods.schemaOf(parsed.tool, parsed.method, caller);
    return undefined;
  }
}
