import { api } from '../../api/client';
import { answered } from '../../api/call';
import { when } from '../../api/format';
import { ListPage } from '../../components/ListPage';
import type { Column } from '../../components/Table';

type Skill = Awaited<ReturnType<typeof loadSkills>>[number];

const loadSkills = () => answered(api.GET('/api/v2/workspace/skills')).then((page) => page.skills);

const COLUMNS: Column<Skill>[] = [
  { header: 'Name', cell: (skill) => <a href={`/app/skills/${skill.id}`}>{skill.name}</a> },
  { header: 'Shared with', cell: (skill) => (skill.scope === 'org' ? 'the team' : 'only its author') },
  { header: 'Live version', cell: (skill) => skill.live_version ?? 'none' },
  {
    header: 'Waiting for approval',
    cell: (skill) => (skill.pending_version ? `version ${skill.pending_version}` : ''),
  },
  { header: 'Updated', cell: (skill) => when(skill.updated_at) },
];

/** The workspace's custom skills: the caller's own and the team's, with what waits for the owner. */
export function Skills() {
  return (
    <ListPage
      title="Skills"
      load={loadSkills}
      columns={COLUMNS}
      empty="No custom skills yet: an agent saves one with POST /api/v2/workspace/skills."
    />
  );
}
