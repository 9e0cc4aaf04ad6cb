import { useLoaded } from '../api/call';
import { SignedInLayout } from './SignedInLayout';
import { Table, type Column } from './Table';

/** A signed-in page that is one table of what `load` lists (loaded once), each row keyed by its id. */
export function ListPage<Row extends { id: string }>({
  title,
  load,
  columns,
  empty,
}: {
  title: string;
  /** Stable across renders (a module-level function): a new one loads again. */
  load: () => Promise<Row[]>;
  columns: Column<Row>[];
  /** Said instead of an empty table. */
  empty: string;
}) {
  const { data, problem } = useLoaded(load);
  return (
    <SignedInLayout title={title} problem={problem}>
      {data && <Table columns={columns} rows={data} rowKey={(row) => row.id} empty={empty} />}
    </SignedInLayout>
  );
}
