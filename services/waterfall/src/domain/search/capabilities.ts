import type { catalog } from '@rde/proto';
import type { FilterKey } from './filters';

/** How a filter's values go into the vendor payload: as a list, one text, the first item, or as is. */
export type BindForm = 'list' | 'text' | 'first' | 'value';

export interface Binding {
  /** Dotted path in the payload, e.g. `query.job_title`. */
  readonly to: string;
  readonly as: BindForm;
  /** Canonical value → the vendor's spelling (seniority levels). */
  readonly values?: Readonly<Record<string, string>>;
}

export type Paging =
  | { readonly style: 'cursor'; readonly size: string; readonly cursor: string; readonly next: readonly string[] }
  | { readonly style: 'page'; readonly size: string; readonly page: string }
  | { readonly style: 'offset'; readonly size: string; readonly offset: string }
  | { readonly style: 'none'; readonly size: string };

/** A chain step as the catalog declares it: every decision of the walk reads these, never a name. */
export interface SearchStep {
  /** `<tool>.<method>`. */
  readonly name: string;
  readonly tool: string;
  readonly method: string;
  readonly filters: ReadonlySet<FilterKey>;
  readonly silentlyIgnores: ReadonlySet<FilterKey>;
  readonly locationTokens: 'place_name' | 'metro_code' | 'free_text';
  readonly locationLookup?: {
    readonly method: string;
    readonly parameter: string;
    readonly rows: readonly string[];
    readonly code: string;
  };
  readonly companyMatch: 'exact' | 'loose';
  /** Set on steps that search one company a request (the public-web steps). */
  readonly companyAnchor?: Binding;
  readonly bind: Readonly<Partial<Record<FilterKey, Binding>>>;
  readonly paging: Paging;
  /** The most rows one request returns. */
  readonly pageSize: number;
  /** `record`: each returned row; `hit`: each request that finds someone; `call`: each request. */
  readonly costUnit: 'record' | 'hit' | 'call';
  readonly unitPrice: number;
  readonly verificationRequired: boolean;
  readonly verificationReason?: string;
}

interface DeclaredCapabilities {
  filters?: FilterKey[];
  silently_ignores?: FilterKey[];
  location_tokens?: SearchStep['locationTokens'];
  location_lookup?: SearchStep['locationLookup'];
  company_match?: SearchStep['companyMatch'];
  company_anchor?: Binding;
  bind?: SearchStep['bind'];
  paging?: Paging;
  verification_required?: boolean;
  verification_reason?: string;
}

/** Reads a chain step's declared capabilities (catalog's GetWaterfall). */
export function searchStepOf(step: catalog.ChainStep): SearchStep {
  const declared = JSON.parse(step.capabilitiesJson.toString('utf8') || '{}') as DeclaredCapabilities;
  return {
    name: `${step.tool}.${step.method}`,
    tool: step.tool,
    method: step.method,
    filters: new Set(declared.filters ?? []),
    silentlyIgnores: new Set(declared.silently_ignores ?? []),
    locationTokens: declared.location_tokens ?? 'free_text',
    locationLookup: declared.location_lookup,
    companyMatch: declared.company_match ?? 'loose',
    companyAnchor: declared.company_anchor,
    bind: declared.bind ?? {},
    paging: declared.paging ?? { style: 'none', size: 'size' },
    pageSize: Math.max(1, step.maxRows),
    costUnit: (step.cost?.unit ?? 'call') as SearchStep['costUnit'],
    unitPrice: Number(step.cost?.amount?.millicredits ?? 0),
    verificationRequired: declared.verification_required === true,
    verificationReason: declared.verification_reason,
  };
}
