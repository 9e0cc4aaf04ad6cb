import { useCallback, useState } from 'react';
import { api } from '../../api/client';
import { answered, useLoaded } from '../../api/call';
import { when } from '../../api/format';
import { Pager } from '../../components/Pager';
import { SignedInLayout } from '../../components/SignedInLayout';
import { Table, type Column } from '../../components/Table';

const PAGE = 20;

type Dataset = Awaited<ReturnType<typeof listPage>>['datasets'][number];

const listPage = (offset: number) =>
  answered(api.GET('/api/v2/datasets', { params: { query: { offset, limit: PAGE } } }));

const COLUMNS: Column<Dataset>[] = [
  { header: 'Name', cell: (dataset) => <a href={`/app/datasets/${dataset.id}`}>{dataset.name}</a> },
  { header: 'Rows', cell: (dataset) => dataset.row_count },
  { header: 'Enrichment', cell: (dataset) => dataset.enrich_status },
  { header: 'Created', cell: (dataset) => when(dataset.created_at) },
];

/** The workspace's datasets, newest first, a page at a time; each opens its rows. */
export function Datasets() {
  const [offset, setOffset] = useState(0);
  const { data, problem } = useLoaded(useCallback(() => listPage(offset), [offset]));
  return (
    <SignedInLayout title="Datasets" problem={problem}>
      {data && (
        <>
          <Table
            columns={COLUMNS}
            rows={data.datasets}
            rowKey={(dataset) => dataset.id}
            empty="No datasets yet: searches, enrichment calls and uploads through the API create them."
          />
          <Pager offset={offset} limit={PAGE} total={data.total} onOffset={setOffset} />
        </>
      )}
    </SignedInLayout>
  );
}
