/**
 * A deep copy of a stored document, built in this realm. structuredClone makes its Dates and typed
 * arrays in Node's main realm, which a sandboxed realm (jest's) does not recognise as `Date`, so
 * date filters on copied documents silently stopped matching there.
 */
export function deepCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  // Plain objects of this realm, nearly every value of a document, skip the type tests below.
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) return copyFields(value);
  const tag = Object.prototype.toString.call(value);
  if (tag === '[object Date]') return new Date((value as unknown as Date).getTime()) as T;
  if (Buffer.isBuffer(value)) return Buffer.from(value) as T;
  if (tag === '[object Uint8Array]') return Uint8Array.from(value as unknown as Uint8Array) as T;
  if (tag !== '[object Object]') return structuredClone(value);
  return copyFields(value);
}

function copyFields<T extends object>(value: T): T {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = deepCopy((value as Record<string, unknown>)[key]);
  return copy as T;
}
