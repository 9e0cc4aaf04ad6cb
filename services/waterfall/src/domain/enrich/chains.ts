import type { ProfileShape } from './profile';
import type { SubjectField } from './subject';

export const CAPABILITIES = ['email_enrichment', 'personal_email', 'linkedin_profile', 'phone_enrichment'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export function isCapability(name: string): name is Capability {
  return (CAPABILITIES as readonly string[]).includes(name);
}

/**
 * How a step talks to its provider. `lookup`: one synchronous call per row. `job`: one submitted
 * job per row, polled (or woken by the vendor's callback) until done. `batch`: one job for all
 * pending rows, up to the vendor's batch size, results matched back by a correlation key. The job
 * shape (poll method, id field, done state, batch size, correlation field) is the provider's own
 * declaration in the catalog.
 */
export type StepKind = 'lookup' | 'job' | 'batch';

/** Where the step's finding sits in the provider's answer (or in a batch's result entry), and what it is. */
export type Finding =
  | { readonly kind: 'email'; readonly path: readonly string[] }
  /** A list of `{address}` objects: every address offered is judged in turn. */
  | { readonly kind: 'emails'; readonly path: readonly string[]; readonly field: string }
  | { readonly kind: 'phone'; readonly path: readonly string[] }
  /** A list of `{number}` objects: the first one. */
  | { readonly kind: 'phones'; readonly path: readonly string[]; readonly field: string }
  | { readonly kind: 'profile'; readonly shape: ProfileShape };

export interface ChainStep {
  /** The catalog's tool and method (for jobs and batches: the submit method). */
  readonly tool: string;
  readonly method: string;
  readonly kind: StepKind;
  /**
   * What the provider needs from a row: alternatives of `parameter ← subject field`; the first
   * alternative the row fully has is sent. A row with none is skipped (`skip`, free).
   */
  readonly needs: readonly Readonly<Record<string, SubjectField>>[];
  readonly finding: Finding;
}

export interface Chain {
  readonly capability: Capability;
  /** The row field the capability fills. */
  readonly field: 'email' | 'personal_email' | 'profile' | 'phone';
  readonly steps: readonly ChainStep[];
  /** `personal_email`: every offered address is validated, billed once per distinct address. */
  readonly validator?: { readonly tool: string; readonly method: string };
}

const byName = { first_name: 'first_name', last_name: 'last_name' } as const;

/** The chains, in the order their providers are tried. Prices and job shapes come from the catalog. */
export const CHAINS: Readonly<Record<Capability, Chain>> = {
  email_enrichment: {
    capability: 'email_enrichment',
    field: 'email',
    steps: [
      {
        tool: 'mailfinder',
        method: 'find',
        kind: 'lookup',
        needs: [
          { ...byName, domain: 'company_domain' },
          { ...byName, company: 'company_name' },
        ],
        finding: { kind: 'email', path: ['data', 'email'] },
      },
      {
        tool: 'bulkmail',
        method: 'submit',
        kind: 'batch',
        needs: [
          { linkedin_url: 'linkedin_url' },
          { ...byName, domain: 'company_domain' },
          { ...byName, company: 'company_name' },
        ],
        finding: { kind: 'email', path: ['email'] },
      },
      {
        tool: 'reachout',
        method: 'submit',
        kind: 'job',
        needs: [{ linkedin_url: 'linkedin_url' }],
        finding: { kind: 'email', path: ['email'] },
      },
    ],
  },
  personal_email: {
    capability: 'personal_email',
    field: 'personal_email',
    steps: [
      {
        tool: 'persona',
        method: 'lookup',
        kind: 'lookup',
        needs: [{ linkedin_url: 'linkedin_url' }],
        finding: { kind: 'emails', path: ['person', 'emails'], field: 'address' },
      },
      {
        tool: 'homebase',
        method: 'lookup',
        kind: 'lookup',
        needs: [{ linkedin_url: 'linkedin_url' }, { full_name: 'full_name', company: 'company_name' }],
        finding: { kind: 'email', path: ['email'] },
      },
    ],
    validator: { tool: 'verimail', method: 'verify' },
  },
  linkedin_profile: {
    capability: 'linkedin_profile',
    field: 'profile',
    steps: [
      {
        tool: 'profilely',
        method: 'profile',
        kind: 'lookup',
        needs: [{ url: 'linkedin_url' }],
        finding: { kind: 'profile', shape: 'profilely' },
      },
      {
        tool: 'litepro',
        method: 'enrich',
        kind: 'lookup',
        needs: [{ linkedin_url: 'linkedin_url' }],
        finding: { kind: 'profile', shape: 'litepro' },
      },
    ],
  },
  phone_enrichment: {
    capability: 'phone_enrichment',
    field: 'phone',
    steps: [
      {
        tool: 'dialbook',
        method: 'find',
        kind: 'lookup',
        needs: [{ linkedin_url: 'linkedin_url' }],
        finding: { kind: 'phones', path: ['phones'], field: 'number' },
      },
      {
        tool: 'ringdirect',
        method: 'submit',
        kind: 'job',
        needs: [{ profile_url: 'linkedin_url' }],
        finding: { kind: 'phone', path: ['mobile'] },
      },
    ],
  },
};

/** The provider input a step sends for a subject, or undefined when the row lacks what it needs. */
export function inputFor(step: ChainStep, subject: Readonly<Partial<Record<SubjectField, string>>>) {
  for (const alternative of step.needs) {
    const entries = Object.entries(alternative).map(([parameter, field]) => [parameter, subject[field]] as const);
    if (entries.every(([, value]) => value !== undefined)) return Object.fromEntries(entries) as Record<string, string>;
  }
  return undefined;
}

/** Every value at `path`; a missing node gives none. */
export function valueAt(answer: unknown, path: readonly string[]): unknown {
  let node = answer;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The strings a step's email or phone finding offers, in the provider's order (empty: none). */
export function offeredValues(finding: Exclude<Finding, { kind: 'profile' }>, answer: unknown): string[] {
  const node = valueAt(answer, finding.path);
  if (finding.kind === 'email' || finding.kind === 'phone') return typeof node === 'string' && node ? [node] : [];
  if (!Array.isArray(node)) return [];
  const values = node
    .map((item) =>
      typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[finding.field] : undefined,
    )
    .filter((value): value is string => typeof value === 'string' && value !== '');
  return finding.kind === 'phones' ? values.slice(0, 1) : values;
}
