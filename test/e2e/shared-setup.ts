import { shareable, startRde, type RunningRde } from './harness';
import { SHARED_VARIABLE } from './shared';

/** Where globalSetup leaves the instances for globalTeardown: jest's documented hand-over is a global. */
const STARTED = Symbol.for('rde.e2e.sharedInstances');
type Holder = { [STARTED]?: RunningRde[] };

/**
 * Jest's globalSetup when the test command asks (RDE_E2E_SHARED=1, jest.config.js): one RDE in the
 * default configuration per jest worker, which files asking `startRde(…, { shared: true })` attach
 * to (decision 0081).
 */
export default async function startShared(globalConfig: { maxWorkers: number }): Promise<void> {
  const starts = await Promise.allSettled(Array.from({ length: globalConfig.maxWorkers }, () => startRde()));
  const instances = starts.flatMap((start) => (start.status === 'fulfilled' ? [start.value] : []));
  (globalThis as Holder)[STARTED] = instances;
  const failed = starts.find((start) => start.status === 'rejected');
  if (!failed) {
    process.env[SHARED_VARIABLE] = JSON.stringify(instances.map(shareable));
    return;
  }
  // As before sharing: each file starts its own, and a start that fails again fails that file only.
  console.warn(`the shared RDE did not start; every file starts its own:\n${String(failed.reason)}`);
  await stopShared();
}

/** Jest's globalTeardown: stops what globalSetup started. */
export async function stopShared(): Promise<void> {
  const instances = (globalThis as Holder)[STARTED] ?? [];
  delete (globalThis as Holder)[STARTED];
  await Promise.all(instances.map((rde) => rde.stop()));
}
