import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * Each running `rde start` records its modules' addresses in `<runtime dir>/<pid>.json`, so
 * `rde admin` finds a running instance without the user reading ports out of a log line
 * (decision 0049). A file whose process is gone is stale: ignored, and removed when seen.
 */
export interface InstanceRecord {
  readonly pid: number;
  readonly started_at: string;
  readonly gateway?: string;
  readonly modules: Record<string, string>;
}

export class InstanceLookupError extends Error {}

/** `RDE_RUNTIME_DIR`, else a per-user directory under the system's temporary directory. */
export function runtimeDir(variables: NodeJS.ProcessEnv): string {
  return variables.RDE_RUNTIME_DIR || join(tmpdir(), `rde-${userInfo().username}`);
}

/** Writes this process's record; returns the function that removes it on the way out. */
export function recordInstance(variables: NodeJS.ProcessEnv, modules: Record<string, string>): () => void {
  const dir = runtimeDir(variables);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.json`);
  const record: InstanceRecord = {
    pid: process.pid,
    started_at: new Date().toISOString(),
    gateway: modules.gateway,
    modules,
  };
  writeFileSync(file, JSON.stringify(record));
  return () => rmSync(file, { force: true });
}

/**
 * Where a command reaches `module`: `RDE_<MODULE>_ADDR` when set, else the one running instance
 * recording it (or the one whose pid `instance` names, when several run).
 */
export function moduleAddress(module: string, variables: NodeJS.ProcessEnv, instance?: string): string {
  const variable = `RDE_${module.toUpperCase()}_ADDR`;
  const configured = variables[variable];
  if (configured) return configured;
  const running = liveInstances(runtimeDir(variables)).filter((record) => record.modules[module]);
  const chosen = instance === undefined ? running : running.filter((record) => String(record.pid) === instance);
  if (chosen.length === 1) return chosen[0].modules[module];
  if (instance !== undefined) {
    throw new InstanceLookupError(`no running RDE instance with pid ${instance} runs ${module}${listed(running)}`);
  }
  if (chosen.length === 0) {
    throw new InstanceLookupError(`no running RDE instance runs ${module}: start one (./rde start) or set ${variable}`);
  }
  throw new InstanceLookupError(
    `several RDE instances run ${module}: choose one with --instance <pid>${listed(chosen)}`,
  );
}

function listed(records: InstanceRecord[]): string {
  return records
    .map((r) => `\n  --instance ${r.pid}  (gateway ${r.gateway ?? 'none'}, since ${r.started_at})`)
    .join('');
}

function liveInstances(dir: string): InstanceRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = join(dir, name);
    const record = readRecord(file);
    // An unreadable file may be one being written: skipped, never removed.
    if (!record) return [];
    if (isAlive(record.pid)) return [record];
    rmSync(file, { force: true });
    return [];
  });
}

function readRecord(file: string): InstanceRecord | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as InstanceRecord;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
