/**
 * A deep copy of a stored document, built in this realm. structuredClone makes its Dates and typed
 * arrays in Node's main realm, which a sandboxed realm (jest's) does not recognise as `Date`, so
 * date filters on copied documents silently stopped matching there.
 */
export function deepCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  const tag = Object.prototype.toString.call(value);
  if (tag === '[object Date]') return new Date((value as unknown as Date).getTime()) as T;
  if (Buffer.isBuffer(value)) return Buffer.from(value) as T;
  if (tag === '[object Uint8Array]') return Uint8Array.from(value as unknown as Uint8Array) as T;
  if (tag !== '[object Object]') return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) copy[key] = deepCopy(field);
  return copy as T;
}
