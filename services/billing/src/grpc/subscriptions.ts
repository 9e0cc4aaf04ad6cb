import { workspaceCallerOf } from '@rde/platform';
import type { Handlers } from '@rde/platform';
import type { billingSubscriptions } from '@rde/proto';
import type { Checkouts } from '../app/checkouts';
import type { PlanChanges } from '../app/plan-changes';
import type { ProviderEvents } from '../app/provider-events';
import { json } from './handlers';

/** Proto ⇄ use case only. */
export function subscriptionHandlers({
  checkouts,
  changes,
  events,
}: {
  checkouts: Checkouts;
  changes: PlanChanges;
  events: ProviderEvents;
}): Handlers<typeof billingSubscriptions.SubscriptionServiceService> {
  return {
    async checkout(request, context) {
      return { url: await checkouts.checkout(workspaceCallerOf(context), request.planId, request.cadence) };
    },
    async creditCheckout(request, context) {
      return { url: await checkouts.creditCheckout(workspaceCallerOf(context), request.credits) };
    },
    async shortfallCheckout(request, context) {
      const checkout = await checkouts.shortfallCheckout(
        workspaceCallerOf(context),
        Number(request.needed?.millicredits ?? 0),
      );
      if (!checkout) return { url: '', credits: 0, planId: '' };
      return 'credits' in checkout
        ? { url: checkout.url, credits: checkout.credits, planId: '' }
        : { url: checkout.url, credits: 0, planId: checkout.plan_id };
    },
    async changeSubscription(request, context) {
      return { resultJson: json(await changes.change(workspaceCallerOf(context), request.planId, request.cadence)) };
    },
    async cancelSubscription(request, context) {
      return { resultJson: json({ subscription: await changes.cancel(workspaceCallerOf(context), request.resume) }) };
    },
    async openPortal(_request, context) {
      return { url: await changes.portal(workspaceCallerOf(context)) };
    },
    // Public: the signature is the authentication, so there is no caller.
    async applyProviderEvent(request) {
      return { applied: await events.apply(Buffer.from(request.payload), request.signature) };
    },
  };
}
