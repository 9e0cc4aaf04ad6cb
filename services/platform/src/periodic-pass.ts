/**
 * Runs `pass` every `everyMs` until stopped, one pass at a time: the next is timed from the end of
 * the last, a failed one is handed to `failed` and the next still runs. The timer never keeps the
 * process alive; stopping does not wait for a pass in progress.
 */
export class PeriodicPass {
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly everyMs: number,
    private readonly pass: () => Promise<unknown>,
    private readonly failed: (error: unknown) => void,
  ) {}

  start(): void {
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.pass()
        .catch(this.failed)
        .finally(() => this.schedule());
    }, this.everyMs);
    this.timer.unref();
  }
}
