import { api } from '../api/client';
import { answered, useLoaded } from '../api/call';
import { credits } from '../api/format';
import { SignedInLayout } from '../components/SignedInLayout';
import { SpendChart } from '../components/SpendChart';
import { LedgerCsvLink } from '../components/LedgerCsvLink';
import { Section } from '../components/Section';
import { warningsOf } from './home-warnings';

type Overview = Awaited<ReturnType<typeof loadOverview>>;

async function loadOverview() {
  const [me, overview] = await Promise.all([
    answered(api.GET('/api/v2/me')),
    answered(api.GET('/api/v2/billing/overview')),
  ]);
  return { me, overview };
}

/** The workspace home: balance and its buckets, warnings, spend over 30 days, the latest ledger entries. */
export function Home() {
  const { data, problem } = useLoaded(loadOverview);

  return (
    <SignedInLayout problem={problem} title="Workspace">
      {data && <Standing data={data} />}
    </SignedInLayout>
  );
}

function Standing({ data: { me, overview } }: { data: Overview }) {
  const { buckets } = overview;
  return (
    <>
      <p>
        Signed in as <strong>{me.user?.email}</strong>. Workspace: {me.workspace.name} ({me.role}), {me.plan.name} plan.
      </p>
      {warningsOf(overview).map((warning) => (
        <p key={warning} role="alert" className="warning">
          {warning}
        </p>
      ))}
      <dl className="summary">
        <dt>Balance</dt>
        <dd data-testid="balance">{credits(overview.balance)}</dd>
        <dt>Available</dt>
        <dd>{credits(overview.available)}</dd>
        <dt>Plan credits left</dt>
        <dd>
          {credits(buckets.plan_remaining)} of {buckets.plan_credits.toLocaleString('en')}
        </dd>
        <dt>Purchased credits left</dt>
        <dd>
          {credits(buckets.purchased_remaining)} of {buckets.purchased_credits.toLocaleString('en')}
        </dd>
        <dt>Rollover cap</dt>
        <dd>{buckets.rollover_cap === null ? 'none' : credits(buckets.rollover_cap)}</dd>
      </dl>
      <Section title="Spend over the last 30 days">
        <p>
          {credits(overview.spend_30d)} spent
          {overview.spending_cap !== null && ` of a ${credits(overview.spending_cap)} cap`}.
        </p>
        <SpendChart usage={overview.usage} />
      </Section>
      <Section title="Latest ledger entries">
        <ul>
          {overview.recent_ledger.slice(0, 5).map((entry) => (
            <li key={entry.id}>
              {entry.amount > 0 ? '+' : ''}
              {entry.amount} — {entry.description}
            </li>
          ))}
        </ul>
        <LedgerCsvLink />
      </Section>
    </>
  );
}
