import { when } from '../../api/format';
import { LedgerCsvLink } from '../../components/LedgerCsvLink';
import { Section } from '../../components/Section';
import { Table, type Column } from '../../components/Table';

export interface LedgerEntry {
  id: string;
  created_at: string;
  kind: string;
  amount: number;
  balance_after: number | null;
  description: string;
}

const COLUMNS: Column<LedgerEntry>[] = [
  { header: 'When', cell: (entry) => when(entry.created_at) },
  { header: 'Kind', cell: (entry) => entry.kind },
  { header: 'Credits', cell: (entry) => `${entry.amount > 0 ? '+' : ''}${entry.amount}` },
  { header: 'Balance after', cell: (entry) => entry.balance_after ?? '' },
  { header: 'Description', cell: (entry) => entry.description },
];

/** The newest ledger entries, and the whole ledger as the CSV export. */
export function LedgerTable({ entries }: { entries: LedgerEntry[] }) {
  return (
    <Section title="Ledger">
      <Table columns={COLUMNS} rows={entries} rowKey={(entry) => entry.id} caption="The newest entries" />
      <LedgerCsvLink />
    </Section>
  );
}
