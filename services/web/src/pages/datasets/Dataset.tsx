import { useCallback } from 'react';
import { api } from '../../api/client';
import { answered, useLoaded } from '../../api/call';
import { when } from '../../api/format';
import { ItemPage } from '../../components/ItemPage';
import { EnrichRun } from './EnrichRun';
import { RowsViewer } from './RowsViewer';

/** One dataset: what it is, its rows a page at a time, its CSV, and an enrichment run over it. */
export function Dataset({ params: { id } }: { params: { id: string } }) {
  const { data, problem } = useLoaded(
    useCallback(() => answered(api.GET('/api/v2/datasets/{ds_id}', { params: { path: { ds_id: id } } })), [id]),
  );
  return (
    <ItemPage noun="Dataset" item={data} problem={problem} back={{ href: '/app/datasets', label: 'All datasets' }}>
      {(dataset) => (
        <>
          <p>
            {dataset.row_count} rows, created {when(dataset.created_at)}; enrichment: {dataset.enrich_status}.{' '}
            <a href={`/api/v2/datasets/${encodeURIComponent(id)}/csv`} download>
              Download CSV
            </a>
          </p>
          <EnrichRun datasetId={id} />
          <RowsViewer datasetId={id} columns={dataset.columns} />
        </>
      )}
    </ItemPage>
  );
}
