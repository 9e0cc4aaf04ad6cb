import { execFile } from 'node:child_process';
import { BIN } from './harness';

// `rde` run as a newcomer runs it: no gRPC port, no service address and no backend set unless given.

/** The environment without any RDE variable, as on a fresh machine, plus `variables`. */
export function bareEnv(variables: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const bare = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('RDE_')));
  return { ...bare, RDE_LOG_LEVEL: 'warn', ...variables };
}

export interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `rde <args>` in a bare environment plus `variables` until it exits. */
export function run(args: string[], variables: NodeJS.ProcessEnv): Promise<Exited> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: bareEnv(variables) }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

export function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
