import { useState } from 'react';
import { api } from '../api/client';
import { answered, useAction, useLoaded } from '../api/call';
import { when } from '../api/format';
import { CopyButton } from '../components/CopyButton';
import { Field } from '../components/Field';
import { Form } from '../components/Form';
import { Section } from '../components/Section';
import { SignedInLayout } from '../components/SignedInLayout';
import { Table, type Column } from '../components/Table';

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at?: string | null;
}

const loadKeys = async (): Promise<KeyRow[]> => (await answered(api.GET('/api/v2/keys'))).keys;

/** API keys: the list, a new key (its plaintext shown this once), revoke. */
export function Keys() {
  const { data: keys, problem, reload } = useLoaded(loadKeys);
  return (
    <SignedInLayout title="API keys" problem={problem}>
      <CreateKey onCreated={reload} />
      {keys && <KeyList keys={keys} onRevoked={reload} />}
    </SignedInLayout>
  );
}

function CreateKey({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; key: string }>();
  const { problem, busy, run } = useAction();
  const create = () =>
    run(async () => {
      const answer = await answered(api.POST('/api/v2/keys', { body: { name } }));
      setCreated({ name: answer.name, key: answer.key });
      setName('');
      onCreated();
    });

  return (
    <Section title="Create a key" problem={problem}>
      <Form submit="Create key" busy={busy} onSubmit={create}>
        <Field label="Name" value={name} onValue={setName} />
      </Form>
      {created && (
        <div className="secret">
          <p>
            The key <strong>{created.name}</strong>. Copy it now: RDE keeps only its hash and will not show it again.
          </p>
          <code aria-label="New key">{created.key}</code> <CopyButton value={created.key} label="Copy key" />
        </div>
      )}
    </Section>
  );
}

function KeyList({ keys, onRevoked }: { keys: KeyRow[]; onRevoked: () => void }) {
  const { problem, busy, run } = useAction();
  const revoke = (key: KeyRow) =>
    run(async () => {
      await answered(api.DELETE('/api/v2/keys/{key_id}', { params: { path: { key_id: key.id } } }));
      onRevoked();
    });

  const columns: Column<KeyRow>[] = [
    { header: 'Name', cell: (key) => key.name },
    { header: 'Starts with', cell: (key) => <code>{key.prefix}…</code> },
    { header: 'Created', cell: (key) => when(key.created_at) },
    { header: 'Last used', cell: (key) => (key.last_used_at ? when(key.last_used_at) : 'never') },
    {
      header: 'Actions',
      hiddenHeader: true,
      cell: (key) => (
        <button type="button" disabled={busy} onClick={() => void revoke(key)} aria-label={`Revoke ${key.name}`}>
          Revoke
        </button>
      ),
    },
  ];
  return (
    <Section title="Keys of this workspace" problem={problem}>
      <Table columns={columns} rows={keys} rowKey={(key) => key.id} />
    </Section>
  );
}
