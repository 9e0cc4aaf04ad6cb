import { createUpdater } from 'mingo/updater';
import type { Filter, Update } from '../../ports/document-store';
import { applyPlainOperator, DocumentDraft } from './plain-update';

/** mingo applies one operator per call; deep cloning keeps the caller's update values out of the store. */
const applyOperator = createUpdater({ cloneMode: 'deep' });

/** An upsert starts from the filter's equality conditions, as MongoDB does. */
export function seedFromFilter(filter: Filter): Record<string, unknown> {
  const equalities: Record<string, unknown> = {};
  for (const [path, condition] of Object.entries(filter)) {
    if (path.startsWith('$')) continue;
    const value = isOperatorObject(condition) ? condition.$eq : condition;
    if (value !== undefined) equalities[path] = value;
  }
  return applyUpdate({}, { $set: equalities }, true).doc;
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.keys(value).some((key) => key.startsWith('$'));
}

/**
 * The next version of `stored` (which stays as it was): each operator applied in turn, copying only
 * what changes; `$setOnInsert` only when inserting. Says whether anything changed.
 */
export function applyUpdate(
  stored: Record<string, unknown>,
  update: Update,
  inserting: boolean,
): { doc: Record<string, unknown>; changed: boolean } {
  const draft = new DocumentDraft(stored);
  let changed = false;
  for (const [operator, argument] of Object.entries(update)) {
    if (argument === undefined) continue;
    if (operator === '$setOnInsert' && !inserting) continue;
    const effective = operator === '$setOnInsert' ? '$set' : operator;
    const plain = applyPlainOperator(draft, effective, argument as Record<string, unknown>);
    if (plain !== undefined) {
      changed ||= plain;
      continue;
    }
    const mingoUpdate = { [effective]: argument } as Parameters<typeof applyOperator>[1];
    if (applyOperator(draft.ownAll(), mingoUpdate).length > 0) changed = true;
  }
  return { doc: draft.doc, changed };
}
