import { request } from 'node:http';
import { api } from '../e2e/api';
import type { RunningRde } from '../e2e/harness';
import { enrichmentSupport } from './enrichment-support';

/** A step, as a definition lists it. */
export type StepDraft = { id: string; uses: string; with?: Record<string, unknown> } & Record<string, unknown>;

/** A valid three-step definition (search, email of each person found, qualify), named `name`. */
export function definition(name: string, overrides: Record<string, unknown> = {}) {
  return {
    name,
    description: 'find engineers, their emails, and score them',
    trigger: { type: 'manual' },
    input: {
      schema: {
        type: 'object',
        properties: { city: { type: 'string', maxLength: 100, pattern: '^[A-Za-z ]+$' } },
        required: ['city'],
      },
    },
    steps: [
      {
        id: 'find',
        uses: 'search.people_search',
        with: { titles: ['Software Engineer'], locations: ['{{input.city}}'], limit: 3 },
      },
      {
        id: 'emails',
        uses: 'mailfinder.find',
        for_each: { items: '{{steps.find.output.results}}', max_items: 3 },
        with: { first_name: '{{item.first_name}}', last_name: '{{item.last_name}}', domain: '{{item.company_domain}}' },
      },
      {
        id: 'score',
        uses: 'qualify',
        if: { '>': ['{{steps.find.output._meta.charged}}', 0] },
        with: { job_spec: 'Backend engineer for run {{run.id}}', candidates: '{{steps.find.output.results}}' },
      },
    ],
    output: { people: '{{steps.score.output.candidates}}' },
    ...overrides,
  };
}

/** The workflow routes for one key, and a fresh workspace per test (each reads its own ledger). */
export function workflowSupport(rde: () => RunningRde) {
  const { workspace, charges } = enrichmentSupport(rde);
  const call = (key: string, method: string, path: string, body?: unknown) =>
    api(rde(), method, `/api/v2/workflows${path}`, { key, body });
  return {
    workspace,
    charges,
    call,
    lint: async (key: string, body: unknown) =>
      (await call(key, 'POST', '/lint', body)).body as { valid: boolean; problems: any[] },
    apply: (key: string, body: unknown) => call(key, 'POST', '/apply', body),
    list: async (key: string, query = '') => (await call(key, 'GET', query)).body,
  };
}

/**
 * A POST of a body of `bytes` bytes, answered on its headers alone: the server refuses an oversized
 * body by its declared length before reading it (while a client still writing would meet a closed
 * socket), so only the headers are sent and the connection is dropped once the answer is in.
 */
export function declaredPost(url: string, key: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': bytes };
    const sent = request(url, { method: 'POST', headers }, (response) => {
      resolve(response.statusCode ?? 0);
      sent.destroy();
    });
    sent.on('error', reject);
    sent.flushHeaders();
  });
}
