import { useCallback, useState } from 'react';
import { api } from '../../api/client';
import { answered, useAction, useLoaded } from '../../api/call';
import { when } from '../../api/format';
import { Choice } from '../../components/Choice';
import { Section } from '../../components/Section';
import { ItemPage } from '../../components/ItemPage';

/** One workflow: any of its versions' definitions, and enable or disable. */
export function Workflow({ params: { id } }: { params: { id: string } }) {
  const [version, setVersion] = useState<number>();
  const { data, problem, reload } = useLoaded(
    useCallback(
      () =>
        answered(
          api.GET('/api/v2/workflows/{workflow_id}', {
            params: { path: { workflow_id: id }, query: version ? { version } : {} },
          }),
        ),
      [id, version],
    ),
  );
  return (
    <ItemPage noun="Workflow" item={data} problem={problem} back={{ href: '/app/workflows', label: 'All workflows' }}>
      {(workflow) => (
        <>
          <p>{workflow.description}</p>
          <Switch id={id} enabled={workflow.status === 'enabled'} onChanged={reload} />
          <Section title="Definition">
            <Choice
              label="Version"
              value={String(workflow.version)}
              onValue={(value) => setVersion(Number(value))}
              options={Array.from({ length: workflow.latest_version }, (_, i) => {
                const number = workflow.latest_version - i;
                return {
                  value: String(number),
                  text: number === workflow.latest_version ? `${number} (latest)` : `${number}`,
                };
              })}
            />
            <p>Applied {when(workflow.version_created_at)}.</p>
            <pre data-testid="definition">{JSON.stringify(workflow.definition, null, 2)}</pre>
          </Section>
        </>
      )}
    </ItemPage>
  );
}

function Switch({ id, enabled, onChanged }: { id: string; enabled: boolean; onChanged: () => void }) {
  const { problem, busy, run } = useAction();
  const params = { params: { path: { workflow_id: id } } };
  const flip = () =>
    run(async () => {
      await answered(
        enabled
          ? api.POST('/api/v2/workflows/{workflow_id}/disable', params)
          : api.POST('/api/v2/workflows/{workflow_id}/enable', params),
      );
      onChanged();
    });
  return (
    <Section title="Status" problem={problem}>
      <p data-testid="workflow-status">
        {enabled ? 'Enabled: its runs and triggers are accepted.' : 'Disabled: it does not run.'}
      </p>
      <button type="button" disabled={busy} onClick={() => void flip()}>
        {enabled ? 'Disable' : 'Enable'}
      </button>
    </Section>
  );
}
