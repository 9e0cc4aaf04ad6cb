import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { loadSync, type MethodDefinition } from '@grpc/proto-loader';
import { protoRoot } from '@rde/proto';

/** `rde.auth.v1.AuthService`: the fully qualified service name, read from a generated definition. */
export function serviceNameOf(definition: ServiceDefinition): string {
  const [first] = Object.values(definition);
  if (!first) throw new Error('a contract without RPCs has no service name to read');
  return first.path.split('/')[1];
}

/**
 * The RPCs of a service that its contract marks safe to repeat (`option idempotency_level =
 * IDEMPOTENT` or `NO_SIDE_EFFECTS`): the only ones a client retries.
 */
export function idempotentMethodsOf<D extends ServiceDefinition>(definition: D): (keyof D & string)[] {
  const levels = idempotencyLevels();
  return Object.entries(definition)
    .filter(([, method]) => ['IDEMPOTENT', 'NO_SIDE_EFFECTS'].includes(levels.get(method.path) ?? ''))
    .map(([name]) => name);
}

let loadedLevels: Map<string, string> | undefined;

/** Each RPC's idempotency level by its path, from every contract file, read once. */
function idempotencyLevels(): Map<string, string> {
  if (loadedLevels) return loadedLevels;
  const definitions = loadSync(contractFiles(path.join(protoRoot, 'rde')), { includeDirs: [protoRoot] });
  loadedLevels = new Map();
  for (const service of Object.values(definitions)) {
    if ('format' in service) continue; // a message or an enum, not a service
    for (const method of Object.values(service) as MethodDefinition<unknown, unknown>[]) {
      loadedLevels.set(method.path, String(method.options?.idempotency_level ?? ''));
    }
  }
  return loadedLevels;
}

function contractFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return contractFiles(full);
    return entry.name.endsWith('.proto') ? [path.relative(protoRoot, full)] : [];
  });
}
