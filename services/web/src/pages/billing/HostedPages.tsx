import { useState, type ReactNode } from 'react';
import { api } from '../../api/client';
import { answered, useAction } from '../../api/call';
import { usd } from '../../api/format';
import { Choice } from '../../components/Choice';
import { Form } from '../../components/Form';
import { Section } from '../../components/Section';
import type { BillingData } from './Billing';

type Plans = BillingData['plans'];
type PlanId = 'starter' | 'starter_1k' | 'essential' | 'essential_3k' | 'pro' | 'pro_7500';
type Cadence = 'monthly' | 'annual';
type TopUp = 500 | 2000 | 5000;

/**
 * The payment provider's hosted pages: subscription checkout, a credit top-up, the customer
 * portal. Each asks the API for its URL, then offers it as a link (owner only: the API decides).
 */
export function HostedPages({ plans }: { plans: Plans }) {
  const selfServe = plans.plans.filter((plan) => plan.self_serve && plan.monthly_usd);
  const [planId, setPlanId] = useState(selfServe[0]?.id ?? '');
  const [cadence, setCadence] = useState<Cadence>('monthly');
  const [topUp, setTopUp] = useState(String(plans.topup_tiers[0]?.credits ?? ''));
  return (
    <>
      <HostedPage
        title="Subscribe"
        submit="Go to checkout"
        open={async () =>
          api.POST('/api/v2/billing/subscription/checkout', { body: { plan_id: planId as PlanId, cadence } })
        }
      >
        <Choice
          label="Plan"
          value={planId}
          onValue={setPlanId}
          options={selfServe.map((plan) => ({
            value: plan.id,
            text: `${plan.name}, ${usd(plan.monthly_usd!)} a month`,
          }))}
        />
        <Choice
          label="Billed"
          value={cadence}
          onValue={(value) => setCadence(value as Cadence)}
          options={[
            { value: 'monthly', text: 'monthly' },
            { value: 'annual', text: `annually (${Math.round(plans.annual_discount * 100)} % off)` },
          ]}
        />
      </HostedPage>
      <HostedPage
        title="Buy credits"
        submit="Go to checkout for credits"
        open={async () => api.POST('/api/v2/billing/credits/checkout', { body: { credits: Number(topUp) as TopUp } })}
      >
        <Choice
          label="Credits"
          value={topUp}
          onValue={setTopUp}
          options={plans.topup_tiers.map((tier) => ({
            value: String(tier.credits),
            text: `${tier.credits} for ${usd(tier.usd)}`,
          }))}
        />
      </HostedPage>
      <HostedPage
        title="Payment details and invoices"
        submit="Open the customer portal"
        open={async () => api.POST('/api/v2/billing/portal')}
      />
    </>
  );
}

type UrlAnswer = Parameters<typeof answered<{ url: string }>>[0];

function HostedPage({
  title,
  submit,
  open,
  children,
}: {
  title: string;
  submit: string;
  open: () => UrlAnswer;
  children?: ReactNode;
}) {
  const [url, setUrl] = useState<string>();
  const { problem, busy, run } = useAction();
  const ask = () => run(async () => setUrl((await answered(open())).url));
  return (
    <Section title={title} problem={problem}>
      <Form submit={submit} busy={busy} onSubmit={ask}>
        {children}
      </Form>
      {url && (
        <p role="status">
          <a href={url}>Continue to the payment provider</a>
        </p>
      )}
    </Section>
  );
}
