/**
 * A loop that runs in the background until stopped. `start()` begins it once; `stop()` aborts the
 * signal the loop waits on and waits for the pass in progress, so a stopping process never cuts a
 * pass in half.
 */
export class BackgroundLoop {
  private stopping?: AbortController;
  private running?: Promise<void>;

  constructor(private readonly loop: (signal: AbortSignal) => Promise<void>) {}

  start(): void {
    if (this.running) return;
    const stopping = new AbortController();
    this.stopping = stopping;
    this.running = this.loop(stopping.signal);
  }

  async stop(): Promise<void> {
    this.stopping?.abort();
    await this.running;
    this.running = undefined;
  }
}
