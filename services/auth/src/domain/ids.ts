import { randomBytes } from 'node:crypto';

/** A random id with a prefix that says what it names: `ws_…`, `usr_…`, `mem_…`, `key_…`. */
export function newId(prefix: 'ws' | 'usr' | 'mem' | 'key' | 'sess' | 'inv' | 'fb'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}
