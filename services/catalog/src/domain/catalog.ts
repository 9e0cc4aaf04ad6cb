import { errors } from '@rde/platform';
import type { MethodDeclaration, ProviderDeclaration } from '../providers/declaration';

/** Every declared provider is sold as a tool of this kind (waterfalls join the catalog later). */
export const DATA_PROVIDER_KIND = 'data_provider';

/** A tool with the methods a listing shows. */
export interface ToolEntry {
  readonly provider: ProviderDeclaration;
  readonly methods: readonly MethodDeclaration[];
}

export interface ResolvedMethod {
  readonly provider: ProviderDeclaration;
  readonly method: MethodDeclaration;
}

/** `<tool>.<method>`: how runs, charges and `would_call` name a method. */
export function qualifiedName({ provider, method }: ResolvedMethod): string {
  return `${provider.tool}.${method.name}`;
}

/** The tools and methods built from the provider declarations, looked up by name. */
export class Catalog {
  private readonly byTool: ReadonlyMap<string, ProviderDeclaration>;

  constructor(readonly providers: readonly ProviderDeclaration[]) {
    this.byTool = new Map(providers.map((provider) => [provider.tool, provider]));
  }

  /**
   * Tools narrowed by a case-insensitive filter: a tool whose name, kind or module matches keeps
   * all its methods; otherwise only the methods whose name matches are kept.
   */
  list(filter: string): ToolEntry[] {
    const needle = filter.trim().toLowerCase();
    const matches = (text: string) => text.toLowerCase().includes(needle);
    return this.providers.flatMap((provider) => {
      if (!needle || [provider.tool, DATA_PROVIDER_KIND, provider.module].some(matches)) {
        return [{ provider, methods: provider.methods }];
      }
      const methods = provider.methods.filter((method) => matches(method.name));
      return methods.length > 0 ? [{ provider, methods }] : [];
    });
  }

  has(name: string): boolean {
    return this.byTool.has(name);
  }

  /** A tool by name; 404 when unknown. */
  tool(name: string): ProviderDeclaration {
    const provider = this.byTool.get(name);
    if (!provider) throw errors.notFound(`unknown tool: ${name}`);
    return provider;
  }

  /** A method of a tool; 404 naming what is unknown. */
  method(toolName: string, methodName: string): ResolvedMethod {
    const provider = this.tool(toolName);
    const method = provider.methods.find((m) => m.name === methodName);
    if (!method) throw errors.notFound(`unknown method: ${toolName}.${methodName}`);
    return { provider, method };
  }

  /**
   * A flat `<tool>_<method>` name (tool names hold underscores too, so every split point is tried)
   * resolved to its method, or undefined when no split names a declared method.
   */
  resolveFlatName(name: string): ResolvedMethod | undefined {
    for (let at = name.indexOf('_'); at > 0; at = name.indexOf('_', at + 1)) {
      const provider = this.byTool.get(name.slice(0, at));
      const method = provider?.methods.find((m) => m.name === name.slice(at + 1));
      if (provider && method) return { provider, method };
    }
    return undefined;
  }
}
