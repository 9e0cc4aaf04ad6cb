/** A JSON argument as the contracts carry it: bytes, empty when absent. */
export function jsonBytes(value: unknown): Buffer {
  return value === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(value));
}

export function parseJson(bytes: Uint8Array, empty: unknown = null): unknown {
  return bytes.length === 0 ? empty : JSON.parse(Buffer.from(bytes).toString('utf8'));
}

/** A JSON object: not null, not an array. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
