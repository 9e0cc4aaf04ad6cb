/**
 * Renews a lease every third of its length until the returned stop is called, so two missed
 * renewals still leave it standing, while a holder that died stops renewing and the lease lapses for
 * another replica to take. A failed renewal is reported and the next one tried; the timer never
 * keeps the process alive.
 */
export function leaseHeartbeat(
  leaseMs: number,
  renew: () => Promise<unknown>,
  onError: (error: unknown) => void,
): () => void {
  const timer = setInterval(() => void renew().catch(onError), leaseMs / 3);
  timer.unref();
  return () => clearInterval(timer);
}
