import { useCallback, useState } from 'react';
import { api } from '../../api/client';
import { answered, useLoaded } from '../../api/call';
import { Pager } from '../../components/Pager';
import { Section } from '../../components/Section';
import { Table, type Column } from '../../components/Table';

const PAGE = 25;

type Row = Record<string, unknown>;

/** A cell as text: a nested value (an enrichment's steps, a profile) as its JSON. */
const cellText = (value: unknown) =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/**
 * The dataset's columns, then any other key of the rows shown: an enrichment run writes its
 * results (steps, hit, the found values) into rows whose dataset keeps the input's columns.
 */
const keysOf = (columns: string[], rows: Row[]) => [
  ...new Set([...columns, ...rows.flatMap((row) => Object.keys(row))]),
];

/** The dataset's rows, a page at a time, one column per key (the enrichment columns included). */
export function RowsViewer({ datasetId, columns }: { datasetId: string; columns: string[] }) {
  const [offset, setOffset] = useState(0);
  const { data, problem } = useLoaded(
    useCallback(
      () =>
        answered(
          api.GET('/api/v2/datasets/{ds_id}/rows', {
            params: { path: { ds_id: datasetId }, query: { offset, limit: PAGE } },
          }),
        ),
      [datasetId, offset],
    ),
  );
  const tableColumns: Column<{ position: number; row: Row }>[] = [
    { header: '#', cell: ({ position }) => position + 1 },
    ...keysOf(columns, (data?.rows ?? []) as Row[]).map((name) => ({
      header: name,
      cell: ({ row }: { row: Row }) => cellText(row[name]),
    })),
  ];
  return (
    <Section title="Rows" problem={problem}>
      {data && (
        <>
          <div className="wide">
            <Table
              columns={tableColumns}
              rows={data.rows.map((row, i) => ({ position: data.offset + i, row: row as Row }))}
              rowKey={({ position }) => String(position)}
            />
          </div>
          <Pager offset={data.offset} limit={PAGE} total={data.total} onOffset={setOffset} />
        </>
      )}
    </Section>
  );
}
