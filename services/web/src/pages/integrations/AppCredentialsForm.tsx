import { useState } from 'react';
import { api } from '../../api/client';
import { answered, useAction } from '../../api/call';
import { Choice } from '../../components/Choice';
import { Field } from '../../components/Field';
import { Form } from '../../components/Form';
import { Section } from '../../components/Section';

/** Saves the workspace's own OAuth app for a provider; the API drops any connection made before. */
export function AppCredentialsForm({ providers, onSaved }: { providers: string[]; onSaved: () => void }) {
  const [provider, setProvider] = useState(providers[0]!);
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [saved, setSaved] = useState<string>();
  const { problem, busy, run } = useAction();
  const save = () =>
    run(async () => {
      const body = { client_id: clientId, client_secret: clientSecret };
      const answer = await answered(
        api.PUT('/api/v2/integrations/{provider}/oauth/credentials', { params: { path: { provider } }, body }),
      );
      setSaved(answer.provider);
      setClientId('');
      setClientSecret('');
      onSaved();
    });
  return (
    <Section title="Your own OAuth app" problem={problem}>
      <p>
        Connect through an app you registered with the provider. Saving it replaces the provider's current connection:
        connect again afterwards.
      </p>
      <Form submit="Save the app" busy={busy} onSubmit={save}>
        <Choice
          label="Provider"
          value={provider}
          onValue={setProvider}
          options={providers.map((name) => ({ value: name, text: name }))}
        />
        <Field label="Client ID" autoComplete="off" value={clientId} onValue={setClientId} />
        <Field
          label="Client secret"
          type="password"
          autoComplete="new-password"
          value={clientSecret}
          onValue={setClientSecret}
        />
      </Form>
      {saved && (
        <p role="status">
          Saved your {saved} app. Connect {saved} to use it.
        </p>
      )}
    </Section>
  );
}
