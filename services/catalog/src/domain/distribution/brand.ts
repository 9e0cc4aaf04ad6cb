/**
 * The brand assets emails may reference: a fixed table from the public name to a file shipped with
 * the service. A caller's name is only ever a key here, never part of a path.
 */
export const BRAND_ASSETS: ReadonlyMap<string, { readonly file: string; readonly contentType: string }> = new Map([
  ['logo.svg', { file: 'logo.svg', contentType: 'image/svg+xml' }],
  ['mark.svg', { file: 'mark.svg', contentType: 'image/svg+xml' }],
]);
