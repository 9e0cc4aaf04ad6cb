import { createHash, randomBytes } from 'node:crypto';

/** A new enrichment run's id; it is also the id of the credit hold the run reserves. */
export function newEnrichRunId(): string {
  return `enr_${randomBytes(12).toString('hex')}`;
}

/**
 * The run of a call its caller named (an Idempotency-Key's or a workflow step's run id): a repeat of
 * the call finds the same run, in the same workspace only.
 */
export function enrichRunIdOf(workspaceId: string, callerRunId: string): string {
  return `enr_${sha256(`enrich-call:${workspaceId}:${callerRunId}`).slice(0, 24)}`;
}

/** The dataset of a run's rows: derived from the run id, so a retried create converges. */
export function enrichDatasetIdOf(runId: string): string {
  return `ds_${sha256(`enrich:${runId}`).slice(0, 24)}`;
}

/** Rule 2: the validator is billed once per distinct address in a run, whichever provider offered it. */
export function validationChargeIdOf(runId: string, address: string): string {
  return `${runId}:verify:${sha256(address.trim().toLowerCase()).slice(0, 32)}`;
}

/**
 * Rule 7: the replay key of a rows batch: the workspace, the capability and the rows, each row's
 * keys in sorted order so that key order does not make a batch new.
 */
export function replayKeyOf(workspaceId: string, capability: string, rows: readonly unknown[]): string {
  return `enrich-replay:${workspaceId}:${capability}:${sha256(canonicalJson(rows))}`;
}

/** JSON with every object's keys sorted. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A callback nonce: 128 random bits, URL-safe; only its hash is stored. */
export function newNonce(): { nonce: string; hash: string } {
  const nonce = randomBytes(16).toString('base64url');
  return { nonce, hash: nonceHashOf(nonce) };
}

export function nonceHashOf(nonce: string): string {
  return sha256(`nonce:${nonce}`);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
