/** A JSON Pointer (RFC 6901) from path segments: how lint names a place in a definition. */
export function pointer(...segments: (string | number)[]): string {
  return segments.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
