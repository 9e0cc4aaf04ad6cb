import { randomBytes } from 'node:crypto';
import { errors, httpError, type ValidationIssue } from '@rde/platform';

/** A dataset's metadata; its rows are stored apart, one document each. */
export interface DatasetRecord {
  id: string;
  workspaceId: string;
  name: string;
  /** Union of the rows' keys in first-seen order. */
  columns: string[];
  rowCount: number;
  /** Bytes of the rows' JSON as sent: what the workspace's byte quota counts. */
  bytes: number;
  sessionId: string;
  createdBy: string;
  createdAt: number;
  /** Where paid rows came from (e.g. `tool:people_db_a.search`); empty for uploads. */
  source: string;
  runId: string;
  enrichStatus: string;
}

/** What a dataset says until an enrichment run touches it. */
export const ENRICH_STATUS_NONE = 'none';

export const NAME_MAX_LENGTH = 200;

/** Ids are URL-safe so they sit in paths and CSV file names as they are. */
const DATASET_ID = /^ds_[A-Za-z0-9_-]{1,96}$/;
const SESSION_ID = /^ses_[A-Za-z0-9_-]+$/;

/** 96 random bits: unguessable, so ids of other workspaces cannot be probed. */
export function newDatasetId(): string {
  return `ds_${randomBytes(12).toString('hex')}`;
}

/** A caller-chosen id (a paid run's deterministic one) must look like ours. */
export function checkDatasetId(id: string): void {
  if (!DATASET_ID.test(id)) {
    throw httpError(400, { detail: { reason: 'invalid_dataset_id', message: 'dataset_id must be a ds_ id' } });
  }
}

/** The spec's 400 for a session id that is not a `ses_` id; empty means "no session". */
export function checkSessionId(id: string): void {
  if (id !== '' && !SESSION_ID.test(id)) {
    throw httpError(400, { detail: { reason: 'invalid_session_id', message: 'session_id must be a ses_ id' } });
  }
}

/** The name as given, trimmed; the dataset id when none is given. */
export function datasetName(given: string, id: string): string {
  const name = given.trim();
  if (name.length > NAME_MAX_LENGTH) {
    throw errors.validation([
      { loc: ['body', 'name'], msg: `must NOT have more than ${NAME_MAX_LENGTH} characters`, type: 'maxLength' },
    ]);
  }
  return name || id;
}

export interface PageLimits {
  readonly defaultLimit: number;
  readonly maxLimit: number;
}

/** The spec's list default (limit 10, offset 0). */
export const DATASET_PAGE: PageLimits = { defaultLimit: 10, maxLimit: 100 };
/** The spec's rows default page (50); a page stays well under gRPC's 4 MiB message limit. */
export const ROW_PAGE: PageLimits = { defaultLimit: 50, maxLimit: 1000 };

export interface Page {
  offset: number;
  limit: number;
}

/** A requested page with defaults applied (limit 0 = default); out-of-range values are a 422. */
export function pageOf(requested: Partial<Page> | undefined, limits: PageLimits): Page {
  const offset = requested?.offset ?? 0;
  const limit = requested?.limit || limits.defaultLimit;
  const issues: ValidationIssue[] = [];
  if (offset < 0) issues.push({ loc: ['query', 'offset'], msg: 'must be >= 0', type: 'minimum' });
  if (limit < 1) issues.push({ loc: ['query', 'limit'], msg: 'must be >= 1', type: 'minimum' });
  if (limit > limits.maxLimit) {
    issues.push({ loc: ['query', 'limit'], msg: `must be <= ${limits.maxLimit}`, type: 'maximum' });
  }
  if (issues.length > 0) throw errors.validation(issues);
  return { offset, limit };
}
