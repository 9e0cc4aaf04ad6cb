/**
 * Runs tasks one at a time per key, in call order. FerretDB 1.x applies an update as a read followed
 * by an unconditional replace by _id, so two guarded updates racing on one document could both pass
 * their guard; running a collection's updates one at a time restores atomicity within a process.
 */
export class SerialWrites {
  private readonly tails = new Map<string, Promise<void>>();

  run<R>(key: string, task: () => Promise<R>): Promise<R> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
