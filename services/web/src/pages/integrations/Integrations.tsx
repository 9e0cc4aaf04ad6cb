import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../api/client';
import { answered, useAction, useLoaded } from '../../api/call';
import { when } from '../../api/format';
import { Section } from '../../components/Section';
import { SignedInLayout } from '../../components/SignedInLayout';
import { Table, type Column } from '../../components/Table';
import { AppCredentialsForm } from './AppCredentialsForm';
import { callbackOutcomeOf } from './callback-outcome';

export type Integration = Awaited<ReturnType<typeof loadIntegrations>>[number];

const loadIntegrations = async () => (await answered(api.GET('/api/v2/integrations'))).integrations;

const APP_IN_USE = {
  workspace: 'your own app',
  managed: "RDE's app",
  none: 'none yet: save your app first',
} as const;

/**
 * CRM/ATS providers (decision 0084): each one's state, connect (to the vendor's consent page and
 * back here, with the outcome said once), disconnect, and the workspace's own OAuth app.
 */
export function Integrations() {
  const [outcome, setOutcome] = useState(() => callbackOutcomeOf(window.location.search));
  const [, navigate] = useLocation();
  // The flag is said once: the address loses it, so a reload does not repeat a stale outcome.
  useEffect(() => {
    if (window.location.search) navigate('/integrations', { replace: true });
  }, [navigate]);
  const { data, problem, reload } = useLoaded(loadIntegrations);
  const changed = () => {
    setOutcome(undefined);
    void reload();
  };
  return (
    <SignedInLayout title="Integrations" problem={problem}>
      {outcome && (
        <p role={outcome.connected ? 'status' : 'alert'} className={outcome.connected ? undefined : 'problem'}>
          {outcome.message}
        </p>
      )}
      {data && (
        <>
          <Providers integrations={data} onChanged={changed} />
          {data.length > 0 && <AppCredentialsForm providers={data.map((i) => i.provider)} onSaved={changed} />}
        </>
      )}
    </SignedInLayout>
  );
}

function Providers({ integrations, onChanged }: { integrations: Integration[]; onChanged: () => void }) {
  const { problem, busy, run } = useAction();
  const path = (provider: string) => ({ params: { path: { provider } } });
  const connect = (provider: string) =>
    run(async () => {
      const { url } = await answered(api.GET('/api/v2/integrations/{provider}/oauth/start', path(provider)));
      window.location.assign(url);
    });
  const disconnect = (provider: string) =>
    run(async () => {
      await answered(api.DELETE('/api/v2/integrations/{provider}/connection', path(provider)));
      onChanged();
    });
  const columns: Column<Integration>[] = [
    { header: 'Provider', cell: (i) => i.provider },
    { header: 'State', cell: (i) => (i.connected_at ? `Connected since ${when(i.connected_at)}` : 'Not connected') },
    { header: 'App used to connect', cell: (i) => APP_IN_USE[i.app] },
    {
      header: 'Actions',
      hiddenHeader: true,
      cell: (i) =>
        i.connected ? (
          <button type="button" disabled={busy} onClick={() => void disconnect(i.provider)}>
            Disconnect {i.provider}
          </button>
        ) : (
          <button type="button" disabled={busy} onClick={() => void connect(i.provider)}>
            Connect {i.provider}
          </button>
        ),
    },
  ];
  return (
    <Section title="Providers" problem={problem}>
      <Table
        columns={columns}
        rows={integrations}
        rowKey={(i) => i.provider}
        empty="No CRM or ATS provider is configured on this RDE (RDE_INTEGRATIONS)."
      />
    </Section>
  );
}
