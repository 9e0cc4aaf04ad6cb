import { asArray, asRecord, asText } from './text';

export type Basis = 'work_history' | 'resume_text' | 'title_only';

/** One dated role, in months since year 0 (end null = still there). */
export interface Role {
  readonly title: string;
  readonly company: string;
  readonly startMonth: number | null;
  readonly endMonth: number | null;
  readonly text: string;
}

/** What the rubric reads from a candidate row, whichever shape it arrived in. */
export interface CandidateProfile {
  readonly basis: Basis;
  readonly title: string;
  readonly company: string;
  readonly roles: readonly Role[];
  readonly skills: readonly string[];
  /** Headline, certifications, education, location, about: searched for keywords. */
  readonly text: string;
}

/** The history keys the spec names, in the order they are read. */
const HISTORY_KEYS = ['experience', 'work_experience', 'job_history'] as const;
/** A pasted resume shorter than this is a bio line, not a resume. */
const RESUME_MIN_CHARS = 200;

export function readCandidate(row: Record<string, unknown>): CandidateProfile {
  const profile = asRecord(row.profile);
  const history = [profile.experience, ...HISTORY_KEYS.map((key) => row[key])].map(asArray).find((list) => list.length);
  const roles = (history ?? [])
    .map(asRecord)
    .map(readRole)
    .filter((role) => role.title || role.company);
  const about = asText(profile.about) || asText(row.about);
  const pick = (...keys: string[]) => keys.map((key) => asText(profile[key]) || asText(row[key])).find(Boolean) ?? '';
  const title = pick('current_title', 'title', 'job_title') || roles[0]?.title || pick('headline');
  const company = pick('current_company', 'company', 'company_name') || roles[0]?.company || '';
  const skills = [...asArray(profile.skills), ...asArray(row.skills)].map(listItem).filter(Boolean);
  const extras = [
    pick('headline'),
    pick('location', 'city'),
    ...[...asArray(profile.certifications), ...asArray(row.certifications)].map(listItem),
    ...[...asArray(profile.education), ...asArray(row.education)].map(listItem),
  ];
  const basis: Basis = roles.length ? 'work_history' : about.length >= RESUME_MIN_CHARS ? 'resume_text' : 'title_only';
  const resumeRoles = basis === 'resume_text' ? rolesInResume(about) : [];
  return {
    basis,
    title,
    company,
    roles: basis === 'resume_text' ? resumeRoles : roles,
    skills,
    text: [...extras, basis === 'title_only' ? '' : about].join(' \n '),
  };
}

function readRole(entry: Record<string, unknown>): Role {
  const end = asText(entry.end ?? entry.end_date);
  const current = entry.is_current === true || /present|current|now/i.test(end);
  return {
    title: asText(entry.title ?? entry.job_title ?? entry.position),
    company: asText(entry.company ?? entry.company_name ?? entry.employer),
    startMonth: monthOf(asText(entry.start ?? entry.start_date)),
    endMonth: current ? null : (monthOf(end) ?? null),
    text: asText(entry.description ?? entry.summary),
  };
}

/** Strings stay; objects (a certification, a school) contribute their text values. */
function listItem(value: unknown): string {
  if (typeof value === 'string') return value;
  return Object.values(asRecord(value)).map(asText).filter(Boolean).join(' ');
}

/** "2019-03", "2019/3", "Mar 2019" or "2019" → months since year 0; null when no year is found. */
export function monthOf(text: string): number | null {
  const numeric = /(\d{4})(?:[-/.](\d{1,2}))?/.exec(text);
  if (!numeric) return null;
  const month = numeric[2] ? Math.min(Math.max(Number(numeric[2]), 1), 12) : 1;
  return Number(numeric[1]) * 12 + month - 1;
}

/**
 * A pasted resume: every line holding a year range ("2018 – 2022", "Mar 2019 - Present") is a role;
 * the line's words around the range are its title and employer.
 */
function rolesInResume(about: string): Role[] {
  const range =
    /((?:[a-z]{3,9}\.?\s+)?\d{4}(?:[-/.]\d{1,2})?)\s*(?:-|–|—|to)\s*((?:[a-z]{3,9}\.?\s+)?\d{4}(?:[-/.]\d{1,2})?|present|current|now)/i;
  return about.split(/\n+/).flatMap((line) => {
    const found = range.exec(line);
    if (!found) return [];
    const label = line.replace(found[0], ' ').trim();
    const current = /present|current|now/i.test(found[2]!);
    return [
      {
        title: label,
        company: '',
        startMonth: monthOf(found[1]!),
        endMonth: current ? null : monthOf(found[2]!),
        text: line,
      },
    ];
  });
}
