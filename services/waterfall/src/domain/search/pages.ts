/**
 * Rule 11: `wanted` rows from a source of at most `pageSize` a request. Above one page the pages are
 * sized evenly to cover it (130 at 25 a page is 6 pages of 22), so no request asks for a sliver.
 */
export function pagePlan(wanted: number, pageSize: number): { pages: number; perPage: number } {
  if (wanted <= pageSize) return { pages: 1, perPage: Math.max(1, wanted) };
  const pages = Math.ceil(wanted / pageSize);
  return { pages, perPage: Math.ceil(wanted / pages) };
}
