import { api } from '../../api/client';
import { answered, useLoaded } from '../../api/call';
import { credits } from '../../api/format';
import { SignedInLayout } from '../../components/SignedInLayout';
import { Section } from '../../components/Section';
import { HostedPages } from './HostedPages';
import { LedgerTable } from './LedgerTable';
import { SpendingCap } from './SpendingCap';

export type BillingData = Awaited<ReturnType<typeof loadBilling>>;

async function loadBilling() {
  const [overview, plans, autoTopUp] = await Promise.all([
    answered(api.GET('/api/v2/billing/overview')),
    answered(api.GET('/api/v2/billing/plans')),
    answered(api.GET('/api/v2/billing/auto-top-up')),
  ]);
  return { overview, plans, autoTopUp };
}

/**
 * Billing: plan and balance, the workspace spending cap, checkout and the customer portal, the
 * auto top-up setting and the ledger. Any member reads it; the changes are the owner's, and a
 * member who tries one is shown the API's 403 (decision 0077).
 */
export function Billing() {
  const { data, problem, reload } = useLoaded(loadBilling);
  return (
    <SignedInLayout title="Billing" problem={problem}>
      {data && (
        <>
          <PlanAndBalance data={data} />
          <SpendingCap cap={data.overview.spending_cap} spent={data.overview.spend_30d} onChanged={reload} />
          <HostedPages plans={data.plans} />
          <LedgerTable entries={data.overview.recent_ledger} />
        </>
      )}
    </SignedInLayout>
  );
}

function PlanAndBalance({ data: { overview, autoTopUp } }: { data: BillingData }) {
  const subscription = overview.subscription as { status?: string; cancel_at_period_end?: boolean } | null;
  return (
    <Section title="Plan and balance">
      <dl className="summary">
        <dt>Plan</dt>
        <dd data-testid="plan">
          {overview.plan.name}
          {subscription?.status &&
            ` (${subscription.status}${subscription.cancel_at_period_end ? ', ends at period end' : ''})`}
        </dd>
        <dt>Balance</dt>
        <dd data-testid="balance">{credits(overview.balance)}</dd>
        <dt>Available</dt>
        <dd>{credits(overview.available)}</dd>
        <dt>Auto top-up</dt>
        <dd>
          {autoTopUp.enabled
            ? `${credits(autoTopUp.topup_credits ?? 0)} when the balance falls below ${credits(autoTopUp.threshold_credits ?? 0)}`
            : 'off'}
        </dd>
      </dl>
    </Section>
  );
}
