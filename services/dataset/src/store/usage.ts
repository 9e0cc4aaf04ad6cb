import type { Collection, Document, DocumentStore } from '@rde/platform';
import type { QuotaLimits, Usage } from '../domain/quota';

interface UsageDocument extends Document, Usage {}

/**
 * Each workspace's dataset holdings, one document per workspace (`_id` = workspace id). A
 * reservation is one guarded increment, so replicas creating at once can never pass a quota together.
 */
export class UsageRepository {
  private constructor(private readonly collection: Collection<UsageDocument>) {}

  static async open(store: DocumentStore): Promise<UsageRepository> {
    return new UsageRepository(store.collection<UsageDocument>('usage'));
  }

  /**
   * Adds `amount` when it fits under `limits`; otherwise changes nothing and answers the current
   * usage. The guarded increment goes first: a workspace's document exists after its first dataset,
   * so one write is the usual cost; only a miss creates the document (or finds it full) and tries once more.
   */
  async reserve(
    workspaceId: string,
    amount: Usage,
    limits: QuotaLimits,
  ): Promise<{ ok: true } | { ok: false; used: Usage }> {
    if (await this.increment(workspaceId, amount, limits)) return { ok: true };
    await this.collection.updateOne(
      { _id: workspaceId },
      { $setOnInsert: { datasets: 0, rows: 0, bytes: 0 } },
      { upsert: true },
    );
    if (await this.increment(workspaceId, amount, limits)) return { ok: true };
    return { ok: false, used: await this.current(workspaceId) };
  }

  private async increment(workspaceId: string, amount: Usage, limits: QuotaLimits): Promise<boolean> {
    const { matched } = await this.collection.updateOne(
      {
        _id: workspaceId,
        datasets: { $lte: limits.datasets - amount.datasets },
        rows: { $lte: limits.rows - amount.rows },
        bytes: { $lte: limits.bytes - amount.bytes },
      },
      { $inc: { datasets: amount.datasets, rows: amount.rows, bytes: amount.bytes } },
    );
    return matched === 1;
  }

  async release(workspaceId: string, amount: Usage): Promise<void> {
    await this.collection.updateOne(
      { _id: workspaceId },
      { $inc: { datasets: -amount.datasets, rows: -amount.rows, bytes: -amount.bytes } },
    );
  }

  async current(workspaceId: string): Promise<Usage> {
    const doc = await this.collection.findOne({ _id: workspaceId });
    return { datasets: doc?.datasets ?? 0, rows: doc?.rows ?? 0, bytes: doc?.bytes ?? 0 };
  }
}
