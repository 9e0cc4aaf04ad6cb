import { useCallback } from 'react';
import { api } from '../../api/client';
import { answered, useAction, useLoaded } from '../../api/call';
import { when } from '../../api/format';
import { Section } from '../../components/Section';
import { ItemPage } from '../../components/ItemPage';
import { Table, type Column } from '../../components/Table';

type SkillVersion = { version?: number; status?: string; created_at?: string; note?: string };

const VERSION_COLUMNS: Column<SkillVersion>[] = [
  { header: 'Version', cell: (version) => version.version },
  { header: 'Status', cell: (version) => version.status },
  { header: 'Saved', cell: (version) => (version.created_at ? when(version.created_at) : '') },
  { header: 'Note', cell: (version) => version.note ?? '' },
];

/** One custom skill: its versions, the live one's files, and the owner's approval of a pending team version. */
export function Skill({ params: { id } }: { params: { id: string } }) {
  const { data, problem, reload } = useLoaded(
    useCallback(
      () => answered(api.GET('/api/v2/workspace/skills/{skill_id}', { params: { path: { skill_id: id } } })),
      [id],
    ),
  );
  return (
    <ItemPage noun="Skill" item={data} problem={problem} back={{ href: '/app/skills', label: 'All skills' }}>
      {(skill) => (
        <>
          <p>{skill.description}</p>
          {skill.pending_version && <Approval id={id} version={skill.pending_version} onDecided={reload} />}
          <Section title="Versions">
            <Table columns={VERSION_COLUMNS} rows={skill.versions} rowKey={(version) => String(version.version)} />
          </Section>
          <Section title={`Files of version ${skill.version.version}`}>
            {Object.entries(skill.version.files ?? {}).map(([name, text]) => (
              <details key={name}>
                <summary>{name}</summary>
                <pre>{text}</pre>
              </details>
            ))}
          </Section>
        </>
      )}
    </ItemPage>
  );
}

/** Approve or reject the version waiting for the owner (the API refuses anyone else). */
function Approval({ id, version, onDecided }: { id: string; version: number; onDecided: () => void }) {
  const { problem, busy, run } = useAction();
  const params = { params: { path: { skill_id: id, version } }, body: {} };
  const decide = (approve: boolean) =>
    run(async () => {
      await answered(
        approve
          ? api.POST('/api/v2/workspace/skills/{skill_id}/versions/{version}/approve', params)
          : api.POST('/api/v2/workspace/skills/{skill_id}/versions/{version}/reject', params),
      );
      onDecided();
    });
  return (
    <Section title={`Version ${version} waits for the owner`} problem={problem}>
      <button type="button" disabled={busy} onClick={() => void decide(true)}>
        Approve version {version}
      </button>{' '}
      <button type="button" disabled={busy} onClick={() => void decide(false)}>
        Reject version {version}
      </button>
    </Section>
  );
}
