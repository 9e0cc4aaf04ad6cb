import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

/** tsx as a loader of this node process: its CLI would fork a grandchild that SIGKILL misses. */
const tsxLoader = pathToFileURL(require.resolve('tsx')).href;

/**
 * Runs a TypeScript script in its own process (the real thing for crash tests: SIGKILL leaves no
 * chance to commit or clean up) and resolves once it prints `line` on stdout.
 */
export async function spawnUntilLine(script: string, args: string[], line: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', tsxLoader, script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const printed = new Promise<void>((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (text) => text === line && resolve());
  });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`${script} exited (${String(code)}) before printing "${line}":\n${stderr}`);
  });
  await Promise.race([printed, exited]);
  exited.catch(() => undefined); // from here on an exit is expected
  return child;
}

export async function killHard(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
