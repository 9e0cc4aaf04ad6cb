import { errors } from '@rde/platform';
import type { MethodDeclaration, ProviderDeclaration, WaterfallDeclaration } from '../providers/declaration';

/** Every declared provider is sold as a tool of this kind. */
export const DATA_PROVIDER_KIND = 'data_provider';
/** A chain of providers sold as one tool. */
export const WATERFALL_KIND = 'waterfall';

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
  private readonly waterfallByTool: ReadonlyMap<string, WaterfallDeclaration>;

  constructor(
    readonly providers: readonly ProviderDeclaration[],
    readonly waterfalls: readonly WaterfallDeclaration[] = [],
  ) {
    this.byTool = new Map(providers.map((provider) => [provider.tool, provider]));
    this.waterfallByTool = new Map(waterfalls.map((waterfall) => [waterfall.tool, waterfall]));
    for (const waterfall of waterfalls) waterfall.chain.forEach((step) => this.step(step));
  }

  /** Waterfalls whose name, kind, module or chain matches the filter (case-insensitive). */
  listWaterfalls(filter: string): WaterfallDeclaration[] {
    const needle = filter.trim().toLowerCase();
    return this.waterfalls.filter((waterfall) =>
      [waterfall.tool, WATERFALL_KIND, waterfall.module, ...waterfall.chain].some((text) =>
        text.toLowerCase().includes(needle),
      ),
    );
  }

  /** A waterfall by name, or undefined when the name is not one. */
  findWaterfall(name: string): WaterfallDeclaration | undefined {
    return this.waterfallByTool.get(name);
  }

  /** A waterfall step `<tool>.<method>` resolved; a declaration naming an unknown method stops the service at start. */
  step(qualified: string): ResolvedMethod {
    const [tool, method] = qualified.split('.');
    return this.method(tool, method);
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
    return this.byTool.has(name) || this.waterfallByTool.has(name);
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
