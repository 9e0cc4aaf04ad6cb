import { DuplicateKeyError, type Collection } from '@rde/platform';
import type { PlanId } from '../domain/plans';
import type { Cadence, SubscriptionDocument } from '../domain/subscriptions';

/** Collection `stripe_events`: the provider event ids already applied (`_id` = event id). */
export type ProviderEventDocument = { _id: string; type: string; created: number; applied_at: number };

type ProviderState = Omit<
  SubscriptionDocument,
  '_id' | 'pending_plan_id' | 'pending_cadence' | 'cap_grace_until' | 'next_grant_at'
>;

/** Subscriptions by workspace; every change is one single-document update. */
export class SubscriptionsRepository {
  constructor(
    private readonly subscriptions: Collection<SubscriptionDocument>,
    private readonly events: Collection<ProviderEventDocument>,
  ) {}

  async createIndexes(): Promise<void> {
    await this.subscriptions.createIndex({ keys: { stripe_customer_id: 1 }, name: 'customer' });
    await this.subscriptions.createIndex({ keys: { pending_plan_id: 1, current_period_end: 1 }, name: 'pending' });
    await this.subscriptions.createIndex({ keys: { next_grant_at: 1 }, name: 'grants' });
  }

  find(workspaceId: string): Promise<SubscriptionDocument | null> {
    return this.subscriptions.findOne({ _id: workspaceId });
  }

  byCustomer(customerId: string): Promise<SubscriptionDocument | null> {
    return this.subscriptions.findOne({ stripe_customer_id: customerId });
  }

  /** Remembers the workspace's provider customer (before any subscription exists). */
  async saveCustomer(workspaceId: string, customerId: string): Promise<void> {
    const blank: Omit<SubscriptionDocument, '_id' | 'stripe_customer_id'> = {
      stripe_subscription_id: '',
      stripe_item_id: '',
      plan_id: 'free',
      cadence: 'monthly',
      status: '',
      current_period_start: 0,
      current_period_end: 0,
      cancel_at_period_end: false,
      pending_plan_id: null,
      pending_cadence: null,
      cap_grace_until: null,
      next_grant_at: null,
      event_created: 0,
    };
    try {
      await this.subscriptions.updateOne(
        { _id: workspaceId },
        { $set: { stripe_customer_id: customerId }, $setOnInsert: blank },
        { upsert: true },
      );
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error; // a concurrent first write made it
      await this.subscriptions.updateOne({ _id: workspaceId }, { $set: { stripe_customer_id: customerId } });
    }
  }

  /**
   * Applies the provider's state unless a newer one was applied already; true when it was. A
   * cancellation clears any pending downgrade.
   */
  async applyProviderState(workspaceId: string, state: ProviderState): Promise<boolean> {
    const ended = state.status === 'canceled';
    const pending = ended ? { pending_plan_id: null, pending_cadence: null } : {};
    const result = await this.subscriptions.updateOne(
      { _id: workspaceId, event_created: { $lte: state.event_created } },
      { $set: { ...state, ...pending } },
    );
    if (result.matched === 1) return true;
    if (await this.find(workspaceId)) return false; // newer state already applied
    try {
      await this.subscriptions.insertOne({
        _id: workspaceId,
        ...state,
        pending_plan_id: null,
        pending_cadence: null,
        cap_grace_until: null,
        next_grant_at: null,
      });
      return true;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      return this.applyProviderState(workspaceId, state);
    }
  }

  /** Our own change, stamped with the time it was made (older provider events then lose). */
  async change(workspaceId: string, fields: Partial<Omit<SubscriptionDocument, '_id'>>): Promise<SubscriptionDocument> {
    const changed = await this.subscriptions.findOneAndUpdate({ _id: workspaceId }, { $set: fields });
    if (!changed) throw new Error(`subscription of ${workspaceId} vanished during a change`);
    return changed;
  }

  /** Applies a due downgrade once: guarded by the pending plan as read. */
  async applyPending(
    subscription: SubscriptionDocument,
    fields: { plan_id: PlanId; cadence: Cadence; cap_grace_until: number; event_created: number },
  ): Promise<boolean> {
    const result = await this.subscriptions.updateOne(
      { _id: subscription._id, pending_plan_id: subscription.pending_plan_id },
      { $set: { ...fields, pending_plan_id: null, pending_cadence: null } },
    );
    return result.matched === 1;
  }

  /** Moves the next grant on from `from`; the subscription after it (null when someone else did). */
  advanceGrant(workspaceId: string, from: number, to: number): Promise<SubscriptionDocument | null> {
    return this.subscriptions.findOneAndUpdate(
      { _id: workspaceId, next_grant_at: from },
      { $set: { next_grant_at: to } },
    );
  }

  /** A newly live subscription starts granting at its period start (once: only while unset). */
  async startGrants(workspaceId: string, at: number): Promise<void> {
    await this.subscriptions.updateOne({ _id: workspaceId, next_grant_at: null }, { $set: { next_grant_at: at } });
  }

  dueGrants(now: number): Promise<SubscriptionDocument[]> {
    return this.subscriptions.find({ next_grant_at: { $lte: now } }, { limit: 100 });
  }

  dueDowngrades(now: number): Promise<SubscriptionDocument[]> {
    return this.subscriptions.find(
      { pending_plan_id: { $ne: null }, current_period_end: { $lte: now } },
      { limit: 100 },
    );
  }

  async eventSeen(eventId: string): Promise<boolean> {
    return (await this.events.findOne({ _id: eventId })) !== null;
  }

  /** Recorded after the event was applied: a crash in between re-applies it, which changes nothing. */
  async recordEvent(event: ProviderEventDocument): Promise<void> {
    try {
      await this.events.insertOne(event);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  }
}
