import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { answered, useAction } from '../../api/call';
import { credits } from '../../api/format';

type RunRecord = Awaited<ReturnType<typeof poll>>;

const poll = (runId: string) => answered(api.GET('/enrich/runs/{run_id}', { params: { path: { run_id: runId } } }));

/** How long to wait before the next poll: what the run asks, at least half a second. */
const pause = (record: RunRecord) => Math.max(500, (record._meta.poll_after_s ?? 1) * 1000);

/** A run followed through its free poll: a progress bar while it runs, its cost and output at the end. */
export function RunProgress({ runId }: { runId: string }) {
  const [record, setRecord] = useState<RunRecord>();
  const { problem, run } = useAction();
  const running = !record || record._meta.status === 'running';

  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => void run(async () => setRecord(await poll(runId))), record ? pause(record) : 0);
    return () => clearTimeout(timer);
  }, [runId, record, running, run]);

  if (problem)
    return (
      <p role="alert" className="problem">
        {problem.message}
      </p>
    );
  if (!record) return <p role="status">Starting the run…</p>;
  const { done, total } = record._meta.progress ?? { done: 0, total: 0 };
  const percent = total === 0 ? 100 : Math.floor((done * 100) / total);
  return (
    <div>
      <progress max={total || 1} value={total === 0 ? 1 : done} aria-label="Run progress" />
      <p role="status" data-testid="run-status">
        {running
          ? `Running: ${done} of ${total} rows (${percent} %).`
          : `Run ${record._meta.status}: ${done} of ${total} rows (${percent} %).`}
      </p>
      {!running && <RunOutcome record={record} />}
    </div>
  );
}

function RunOutcome({ record }: { record: RunRecord }) {
  const { _meta: meta } = record;
  if (meta.status !== 'completed') return <p className="problem">{meta.error ?? 'The run did not complete.'}</p>;
  const summary = (record.summary ?? {}) as { enriched?: number; in_range?: number };
  return (
    <p>
      Charged <strong data-testid="run-charge">{credits(meta.credits_charged ?? 0)}</strong>
      {summary.enriched !== undefined && ` for ${summary.enriched} of ${summary.in_range ?? '?'} rows found`}.{' '}
      {meta.dataset_id && <a href={`/app/datasets/${meta.dataset_id}`}>Open the enriched dataset</a>}
    </p>
  );
}
