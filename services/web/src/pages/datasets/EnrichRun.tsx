import { useState } from 'react';
import { api } from '../../api/client';
import { answered, useAction } from '../../api/call';
import { credits } from '../../api/format';
import { Choice } from '../../components/Choice';
import { Form } from '../../components/Form';
import { Section } from '../../components/Section';
import { RunProgress } from './RunProgress';

type Capability = 'email_enrichment' | 'personal_email' | 'linkedin_profile' | 'phone_enrichment';

const CAPABILITIES: { value: Capability; text: string }[] = [
  { value: 'email_enrichment', text: 'Work email' },
  { value: 'personal_email', text: 'Personal email' },
  { value: 'linkedin_profile', text: 'LinkedIn profile' },
  { value: 'phone_enrichment', text: 'Phone' },
];

/**
 * An enrichment run over the dataset into a new dataset: priced first (nothing spent), then started
 * detached and followed by its poll until it ends.
 */
export function EnrichRun({ datasetId }: { datasetId: string }) {
  const [capability, setCapability] = useState<Capability>('email_enrichment');
  const [estimate, setEstimate] = useState<number>();
  const [runId, setRunId] = useState<string>();
  const { problem, busy, run } = useAction();
  const body = { input: datasetId, steps: [capability] };

  const price = () =>
    run(async () => {
      const answer = await answered(api.POST('/enrich/run', { body: { ...body, estimate: true } }));
      setEstimate(answer._meta.would_charge_credits ?? 0);
    });
  const start = () =>
    run(async () => {
      const answer = await answered(api.POST('/enrich/run', { body: { ...body, detach: true } }));
      setRunId(answer._meta.run_id ?? answer.run_id);
    });

  return (
    <Section title="Enrich this dataset" problem={problem}>
      {runId ? (
        <RunProgress runId={runId} />
      ) : (
        <Form
          submit={estimate === undefined ? 'Estimate the cost' : 'Start the run'}
          busy={busy}
          onSubmit={estimate === undefined ? price : start}
        >
          <Choice
            label="Find"
            value={capability}
            onValue={(value) => {
              setCapability(value as Capability);
              setEstimate(undefined);
            }}
            options={CAPABILITIES}
          />
          {estimate !== undefined && <p role="status">At most {credits(estimate)}: only the rows found are charged.</p>}
        </Form>
      )}
    </Section>
  );
}
