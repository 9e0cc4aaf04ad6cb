import type { Logger } from '../logger';
import { sleepUnlessAborted } from './abortable-sleep';

export interface RetryBackoff {
  initialMs: number;
  maxMs: number;
}

export const defaultRetryBackoff: RetryBackoff = { initialMs: 100, maxMs: 5_000 };

export interface HandleOptions {
  /** Aborted when the subscription stops: the message is then left uncommitted. */
  signal: AbortSignal;
  logger: Logger;
  backoff: RetryBackoff;
  /** Called before each retry (Kafka heartbeats there so a long retry does not cost the partition). */
  beforeRetry?: () => Promise<void>;
  context: Record<string, unknown>;
}

/**
 * Runs `handle` until it resolves. A failing message is retried with exponential backoff and never
 * skipped: skipping would commit work that was not done. Returns false when stopped before success.
 */
export async function handleUntilDone(handle: () => Promise<void>, options: HandleOptions): Promise<boolean> {
  const { signal, logger, backoff } = options;
  for (let attempt = 1; !signal.aborted; attempt++) {
    try {
      await handle();
      return true;
    } catch (error) {
      const delayMs = Math.min(backoff.maxMs, backoff.initialMs * 2 ** (attempt - 1));
      logger.warn({ ...options.context, err: error, attempt, delayMs }, 'message handler failed; retrying');
      if (!(await sleepUnlessAborted(delayMs, signal))) return false;
      await options.beforeRetry?.();
    }
  }
  return false;
}
