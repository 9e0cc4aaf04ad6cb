import type { ReactNode } from 'react';

/** One column: its header, and what a row shows in it. */
export interface Column<Row> {
  readonly header: string;
  readonly cell: (row: Row) => ReactNode;
  /** The header is for screen readers only (an actions column). */
  readonly hiddenHeader?: boolean;
}

/**
 * A table whose first column names each row (a row header, so a screen reader announces the row
 * by it), with an optional caption; with `empty`, no rows is said in a sentence.
 */
export function Table<Row>({
  columns,
  rows,
  rowKey,
  caption,
  empty,
}: {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  caption?: string;
  /** Said instead of an empty table. */
  empty?: string;
}) {
  const [first, ...rest] = columns;
  if (empty && rows.length === 0) return <p>{empty}</p>;
  return (
    <table>
      {caption && <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column.header}>
              {column.hiddenHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {first && <th scope="row">{first.cell(row)}</th>}
            {rest.map((column) => (
              <td key={column.header}>{column.cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
