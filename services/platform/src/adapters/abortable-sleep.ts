import { setTimeout as sleep } from 'node:timers/promises';

/** Waits `ms`; returns false at once when `signal` aborts (a stopping loop must not wait out its delay). */
export async function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false; // aborted
  }
}
