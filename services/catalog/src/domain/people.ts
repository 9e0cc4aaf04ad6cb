import type { PersonRecord } from '@rde/platform';
import type { FieldPath, PersonMapping } from '../providers/declaration';
import type { JsonObject } from './parameters';
import { isObject } from './rows';

/** Every row read through the method's person mapping; rows without a name are left out. */
export function peopleOf(rows: readonly JsonObject[], mapping: PersonMapping): PersonRecord[] {
  return rows.flatMap((row) => {
    const person = mapping.titleLine ? fromTitleLine(row, mapping) : fromFields(row, mapping);
    return person?.name ? [person] : [];
  });
}

function fromFields(row: JsonObject, mapping: PersonMapping): PersonRecord | undefined {
  const name = textAt(row, mapping.name);
  if (!name) return undefined;
  const history = mapping.workHistory && valueAt(row, mapping.workHistory.path);
  return compact({
    name,
    title: textAt(row, mapping.title),
    company: textAt(row, mapping.company),
    company_domain: textAt(row, mapping.companyDomain),
    linkedin_url: textAt(row, mapping.linkedinUrl),
    location: textAt(row, mapping.location),
    seniority: textAt(row, mapping.seniority),
    work_history: Array.isArray(history)
      ? history.filter(isObject).map((job) =>
          compact({
            company: textAt(job, mapping.workHistory!.company),
            title: textAt(job, mapping.workHistory!.title),
          }),
        )
      : undefined,
  });
}

/**
 * `Name - Title - Employer | LinkedIn` with a snippet `City, Region · Title at Employer`: the name
 * is the first part, the employer the last, the title what lies between (titles may hold dashes).
 */
function fromTitleLine(row: JsonObject, mapping: PersonMapping): PersonRecord | undefined {
  const line = textAt(row, mapping.titleLine!.path);
  if (!line) return undefined;
  const parts = line.replace(/\s*\|\s*LinkedIn\s*$/i, '').split(' - ');
  const snippet = textAt(row, mapping.titleLine!.snippet);
  return compact({
    name: parts[0].trim(),
    title: parts.length > 2 ? parts.slice(1, -1).join(' - ').trim() : parts[1]?.trim(),
    company: parts.length > 2 ? parts.at(-1)!.trim() : undefined,
    linkedin_url: textAt(row, mapping.linkedinUrl),
    location: snippet?.split(' · ')[0]?.trim(),
  });
}

function valueAt(row: unknown, path: FieldPath): unknown {
  let node: unknown = row;
  for (const key of path) {
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
  }
  return node;
}

function textAt(row: unknown, path: FieldPath | undefined): string | undefined {
  if (!path) return undefined;
  const value = valueAt(row, path);
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function compact<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}
