/** A vendor described as plain data: what catalog reads to offer it as a tool. */

import type { VendorKind } from '@rde/platform';

export type { VendorKind };

/** Canonical search filter keys (the spec's people_search query keys, tenure and firmographics grouped). */
export type SearchFilter =
  | 'titles'
  | 'locations'
  | 'skills'
  | 'company_domains'
  | 'company_names'
  | 'company_linkedin_urls'
  | 'seniority'
  | 'keywords'
  | 'min_experience_years'
  | 'departments'
  | 'tenure'
  | 'firmographics';

export interface EndpointDescriptor {
  /** The name counters and catalog use for it. */
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** Below the vendor's prefix; `:param` marks a path parameter. */
  readonly path: string;
  readonly purpose: string;
}

export interface CostModel {
  /** `record`: each returned record; `call`: each request, found or not; `hit`: each request that finds something. */
  readonly per: 'record' | 'call' | 'hit';
  readonly credits: number;
  readonly note: string;
}

export interface VendorCapabilities {
  /** Search filters the vendor can express. */
  readonly filters?: readonly SearchFilter[];
  /** Filters it accepts and then does not apply, without saying so. */
  readonly silentlyIgnores?: readonly SearchFilter[];
  /** How it names places: its own tokens, resolved by the caller. */
  readonly locationTokens?: {
    readonly style: 'place_name' | 'metro_code' | 'free_text';
    readonly tokens?: readonly string[];
  };
  readonly companyMatch?: 'exact' | 'loose';
  readonly pageSize?: number;
  readonly maxResults?: number;
  /** Inputs a lookup accepts, each alternative a list of fields. */
  readonly lookupBy?: readonly (readonly string[])[];
  /** Rows it returns must be verified before use. */
  readonly verificationRequired?: boolean;
  readonly async?: {
    readonly submit: string;
    readonly poll: string;
    readonly jobIdField: string;
    readonly callbackField: string;
  };
  readonly batch?: { readonly maxSize: number; readonly correlationField: string };
  /** Known imperfections, for the people writing waterfalls against it. */
  readonly quirks?: readonly string[];
}

/** A vendor as plain data: what catalog needs to describe it as a tool. */
export interface VendorDescriptor {
  readonly id: string;
  readonly name: string;
  readonly kind: VendorKind;
  readonly prefix: string;
  readonly auth: { readonly header: string; readonly scheme?: 'Bearer' | 'Token'; readonly key: string };
  readonly endpoints: readonly EndpointDescriptor[];
  readonly cost: CostModel;
  /** Share of the universe it knows, before the admin hit-rate multiplier. */
  readonly hitRate: number;
  readonly capabilities: VendorCapabilities;
}
