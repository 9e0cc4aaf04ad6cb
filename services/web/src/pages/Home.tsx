import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { answered, useAction } from '../api/call';
import { Problem } from '../components/Problem';
import { SignedInLayout } from '../components/SignedInLayout';

interface Summary {
  email: string;
  workspace: string;
  role: string;
  plan: string;
  balance: number;
  available: number;
}

/** The workspace home: who is signed in, for which workspace, and its balance. */
export function Home() {
  const [summary, setSummary] = useState<Summary>();
  const { problem, run } = useAction();

  useEffect(() => {
    void run(async () => {
      const [me, balance] = await Promise.all([answered(api.GET('/api/v2/me')), answered(api.GET('/billing/balance'))]);
      setSummary({
        email: me.user?.email ?? '',
        workspace: me.workspace.name,
        role: me.role,
        plan: me.plan.name,
        balance: balance.balance,
        available: balance.available,
      });
    });
  }, [run]);

  return (
    <SignedInLayout problem={problem} title="Workspace">
      <Problem problem={problem} />
      {summary && (
        <dl className="summary">
          <dt>Signed in as</dt>
          <dd>{summary.email}</dd>
          <dt>Workspace</dt>
          <dd>
            {summary.workspace} ({summary.role})
          </dd>
          <dt>Plan</dt>
          <dd>{summary.plan}</dd>
          <dt>Balance</dt>
          <dd data-testid="balance">{summary.balance.toLocaleString('en')} credits</dd>
          <dt>Available</dt>
          <dd>{summary.available.toLocaleString('en')} credits</dd>
        </dl>
      )}
    </SignedInLayout>
  );
}
