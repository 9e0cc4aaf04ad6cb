import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client';
import { answered, useAction } from '../api/call';
import { CopyButton } from '../components/CopyButton';
import { Field } from '../components/Field';
import { Form } from '../components/Form';
import { Section } from '../components/Section';
import { SignedInLayout } from '../components/SignedInLayout';

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at?: string | null;
}

/** API keys: the list, a new key (its plaintext shown this once), revoke. */
export function Keys() {
  const [keys, setKeys] = useState<KeyRow[]>();
  const listing = useAction();
  const load = useCallback(
    () => listing.run(async () => setKeys((await answered(api.GET('/api/v2/keys'))).keys)),
    [listing.run],
  );
  useEffect(() => void load(), [load]);

  return (
    <SignedInLayout title="API keys" problem={listing.problem}>
      <CreateKey onCreated={load} />
      {keys && <KeyList keys={keys} onRevoked={load} />}
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

  return (
    <Section title="Keys of this workspace" problem={problem}>
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Starts with</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <th scope="row">{key.name}</th>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{when(key.created_at)}</td>
              <td>{key.last_used_at ? when(key.last_used_at) : 'never'}</td>
              <td>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => void revoke(key)}
                  aria-label={`Revoke ${key.name}`}
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

const when = (iso: string) => new Date(iso).toLocaleString('en');
