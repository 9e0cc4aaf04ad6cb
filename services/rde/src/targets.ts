import type { ServiceModule, ServiceName } from '@rde/platform';

export class TargetError extends Error {}

/** Modules that imitate third parties (the vendors): real ones are remote, so these may run apart. */
const THIRD_PARTY_IMITATIONS: readonly ServiceName[] = ['sandbox'];

/**
 * Whether a process running `chosen` is the all-in-one: every module of RDE's own in it, so its
 * modules call each other in-process (decision 0014). The sandbox may run in a process of its own.
 */
export function isAllInOne(chosen: readonly ServiceModule[], modules: readonly ServiceModule[]): boolean {
  const names = new Set(chosen.map((module) => module.name));
  return modules.every((module) => names.has(module.name) || THIRD_PARTY_IMITATIONS.includes(module.name));
}

/**
 * Resolves `--target` into the modules to run, ordered so each starts after the modules it
 * depends on that run in the same process (the others are reached over the network).
 */
export function resolveTargets(target: string, modules: readonly ServiceModule[]): ServiceModule[] {
  // Keyed by string: the names come from the command line.
  const byName = new Map<string, ServiceModule>(modules.map((m) => [m.name, m]));
  const names = target === 'all' ? [...byName.keys()] : target.split(',').map((n) => n.trim());
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length > 0 || names.length === 0) {
    throw new TargetError(
      `unknown target ${unknown.join(', ') || '(empty)'}; choose all or any of: ${[...byName.keys()].join(', ')}`,
    );
  }
  const chosen = new Set(names);
  const ordered: ServiceModule[] = [];
  const visit = (name: string, path: string[]) => {
    if (ordered.some((m) => m.name === name)) return;
    if (path.includes(name)) throw new TargetError(`dependency cycle: ${[...path, name].join(' → ')}`);
    const module = byName.get(name)!;
    for (const dependency of module.dependencies) if (chosen.has(dependency)) visit(dependency, [...path, name]);
    ordered.push(module);
  };
  for (const name of names) visit(name, []);
  return ordered;
}
