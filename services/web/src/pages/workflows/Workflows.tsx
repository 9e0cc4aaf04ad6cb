import { api } from '../../api/client';
import { answered } from '../../api/call';
import { when } from '../../api/format';
import { ListPage } from '../../components/ListPage';
import type { Column } from '../../components/Table';

type Workflow = Awaited<ReturnType<typeof loadWorkflows>>[number];

const loadWorkflows = () =>
  answered(api.GET('/api/v2/workflows', { params: { query: { limit: 100 } } })).then((page) => page.workflows);

const COLUMNS: Column<Workflow>[] = [
  { header: 'Name', cell: (workflow) => <a href={`/app/workflows/${workflow.id}`}>{workflow.name}</a> },
  { header: 'Status', cell: (workflow) => workflow.status },
  { header: 'Trigger', cell: (workflow) => workflow.trigger.type },
  { header: 'Versions', cell: (workflow) => workflow.latest_version },
  { header: 'Updated', cell: (workflow) => when(workflow.updated_at) },
];

/** The workspace's stored workflows (applied through the API, the CLI or an agent); each opens its versions. */
export function Workflows() {
  return (
    <ListPage
      title="Workflows"
      load={loadWorkflows}
      columns={COLUMNS}
      empty="No workflows yet: apply one with POST /api/v2/workflows/apply or an agent’s workflow skill."
    />
  );
}
