import type { RunCharge } from '../../store/runs';

/** Rows written to the dataset per round trip while a run finishes them. */
const ROW_FLUSH_SIZE = 25;
const ROW_FLUSH_MS = 250;

/** Finished rows, written in small batches so a 100-row run is not 100 round trips. */
export class RowSink {
  private pending: { index: number; charges: readonly RunCharge[] }[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private timer?: Promise<void>;
  private failure?: unknown;

  constructor(
    private readonly write: (batch: { index: number; charges: readonly RunCharge[] }[]) => Promise<void>,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  add(entry: { index: number; charges: readonly RunCharge[] }): void {
    this.pending.push(entry);
    if (this.pending.length >= ROW_FLUSH_SIZE) void this.flush();
    else
      this.timer ??= this.sleep(ROW_FLUSH_MS).then(() => {
        this.timer = undefined;
        return this.flush();
      });
  }

  /** Writes what is left; a write that failed on the way fails the close. */
  async close(): Promise<void> {
    await this.timer;
    await this.flush();
    if (this.failure !== undefined) throw this.failure;
  }

  private flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) {
      this.flushing = this.flushing.then(() =>
        this.write(batch).catch((error: unknown) => {
          this.failure ??= error;
        }),
      );
    }
    return this.flushing;
  }
}
