/**
 * One vendor row read as a person: the same fields whatever the vendor's wire shape. Catalog writes
 * these as InvokeProvider's `people` (JSON bytes); the waterfall reads them.
 */
export interface PersonRecord {
  name: string;
  title?: string;
  company?: string;
  company_domain?: string;
  linkedin_url?: string;
  location?: string;
  seniority?: string;
  work_history?: { company?: string; title?: string }[];
}
