import { api, untilSettled } from '../e2e/api';
import { waitUntil, type RunningRde } from '../e2e/harness';

/** A ledger row as the CSV export has it, with the workflow run a charge was made for. */
export interface RunLedgerRow {
  id: string;
  kind: string;
  amount: number;
  user_id: string | null;
  workflow_run_id: string | null;
}

const ENDED = ['succeeded', 'failed', 'cancelled'];

/**
 * A search, the work email of each person found (for_each), then qualify: the three-step
 * workflow. Its output reads every reference kind: input, a step's output, the run id (and `item`
 * inside the for_each).
 */
export function threeStep(name: string, trigger: 'manual' | 'webhook' = 'manual') {
  return {
    name,
    trigger: { type: trigger },
    input: {
      schema: {
        type: 'object',
        properties: { city: { type: 'string', maxLength: 50 } },
        required: ['city'],
      },
    },
    steps: [
      findStep(2),
      emailsStep(5),
      {
        id: 'score',
        uses: 'qualify',
        with: {
          job_spec: 'Software engineer in {{input.city}} (run {{run.id}})',
          candidates: '{{steps.find.output.results}}',
          allow_thin_profiles: true,
        },
      },
    ],
    output: { run: '{{run.id}}', city: '{{input.city}}', first: '{{steps.find.output.results.0.full_name}}' },
  };
}

/** A paid search for software engineers in the input's city, `limit` people at most. */
export function findStep(limit: number) {
  return {
    id: 'find',
    uses: 'search.people_search',
    with: { titles: ['Software Engineer'], locations: ['{{input.city}}'], limit },
  };
}

/** The work email of each person the `find` step found, `maxItems` at most. */
export function emailsStep(maxItems: number) {
  return {
    id: 'emails',
    uses: 'enrich.email_enrichment',
    for_each: { items: '{{steps.find.output.results}}', max_items: maxItems },
    with: {
      payload: {
        first_name: '{{item.first_name}}',
        last_name: '{{item.last_name}}',
        company_domain: '{{item.company_domain}}',
      },
    },
  };
}

/** `count` paid verimail checks (1 credit each, whatever the verdict), one per item. */
export function verifications(name: string, count: number, extra: Record<string, unknown> = {}) {
  return {
    name,
    trigger: { type: 'manual' },
    steps: [
      {
        id: 'verify',
        uses: 'verimail.verify',
        for_each: { items: Array.from({ length: count }, (_, i) => `p${i}@example.com`) },
        with: { email: '{{item}}' },
      },
    ],
    ...extra,
  };
}

export function runsSupport(rde: () => RunningRde) {
  const workflows = (key: string, method: string, path: string, body?: unknown) =>
    api(rde(), method, `/api/v2/workflows${path}`, { key, body });

  /** Applies a definition and answers its id. */
  async function applied(key: string, definition: object): Promise<string> {
    const response = await workflows(key, 'POST', '/apply', definition);
    if (response.status >= 300) throw new Error(`apply: ${response.status} ${response.text}`);
    return response.body.id as string;
  }

  const run = async (key: string, workflowId: string, runId: string) =>
    (await workflows(key, 'GET', `/${workflowId}/runs/${runId}`)).body;

  /** The run once it ended (succeeded, failed or cancelled). */
  async function ended(key: string, workflowId: string, runId: string) {
    await waitUntil(async () => ENDED.includes((await run(key, workflowId, runId)).status), 120_000, 200);
    return run(key, workflowId, runId);
  }

  /** Calls a workflow and answers the run once it ended. */
  async function called(key: string, body: Record<string, unknown>, workflowId: string) {
    const queued = await workflows(key, 'POST', '/call', body);
    if (queued.status !== 202) throw new Error(`call: ${queued.status} ${queued.text}`);
    return ended(key, workflowId, queued.body.id as string);
  }

  /** The ledger once every hold is settled (CSV export, every column by its header). */
  async function ledger(key: string): Promise<RunLedgerRow[]> {
    await untilSettled(rde(), key);
    const csv = (await api(rde(), 'GET', '/api/v2/billing/ledger.csv', { key })).text;
    const [header, ...lines] = csv.trimEnd().split('\n');
    const columns = header!.split(',');
    return lines.map((line) => {
      // Descriptions never hold commas here; the columns after them are ids.
      const cells = line.split(',');
      const row = Object.fromEntries(columns.map((column, index) => [column, cells[index]]));
      return {
        id: row.id!,
        kind: row.kind!,
        amount: Number(row.amount),
        user_id: row.user_id || null,
        workflow_run_id: row.workflow_run_id || null,
      };
    });
  }

  /** The charges of one run on the ledger, in credits (positive). */
  const runCharges = async (key: string, runId: string) =>
    (await ledger(key)).filter((row) => row.workflow_run_id === runId).map((row) => -row.amount);

  const sum = (values: number[]) => Math.round(values.reduce((total, value) => total + value, 0) * 1000) / 1000;

  return { workflows, applied, run, ended, called, ledger, runCharges, sum };
}
