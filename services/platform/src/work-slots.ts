/**
 * At most `size` pieces of background work at once, one per key (a run, a chunk): `take` waits
 * for a free slot, then starts the work without awaiting it, so a consumer takes its next message
 * only when it can work it. A key already being worked here is not started twice.
 */
export class WorkSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly working = new Set<string>();

  constructor(
    private readonly size: number,
    private readonly failed: (error: unknown, key: string) => void,
  ) {}

  /** Slots not taken now. */
  get free(): number {
    return Math.max(0, this.size - this.active);
  }

  async take(key: string, work: () => Promise<void>): Promise<void> {
    if (this.working.has(key)) return;
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    this.working.add(key);
    void work()
      .catch((error: unknown) => this.failed(error, key))
      .finally(() => {
        this.working.delete(key);
        this.active--;
        this.waiting.shift()?.();
      });
  }
}
