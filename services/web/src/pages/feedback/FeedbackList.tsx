import { when } from '../../api/format';
import { Pager } from '../../components/Pager';
import { Section } from '../../components/Section';
import { Table, type Column } from '../../components/Table';
import { FEEDBACK_PAGE, type FeedbackPage } from './feedback-page';

type Report = FeedbackPage['feedback'][number];

/** The report's lines after its title. */
const detailsOf = (report: Report) => report.message.trim().split('\n').slice(1).join('\n').trim();

const COLUMNS: Column<Report>[] = [
  { header: 'Title', cell: (report) => report.title },
  { header: 'Details', cell: (report) => detailsOf(report) },
  { header: 'Kind', cell: (report) => report.category },
  { header: 'Sent', cell: (report) => when(report.created_at) },
];

/** The workspace's reports, newest first, a page at a time. */
export function FeedbackList({ page, onOffset }: { page: FeedbackPage; onOffset: (offset: number) => void }) {
  return (
    <Section title="Your workspace's feedback">
      <Table
        columns={COLUMNS}
        rows={page.feedback}
        rowKey={(report) => report.id}
        empty="No feedback from this workspace yet."
      />
      {/* The shown page's own offset: the one asked for next is not it until its answer arrives. */}
      <Pager offset={page.offset} limit={FEEDBACK_PAGE} total={page.total} onOffset={onOffset} />
    </Section>
  );
}
